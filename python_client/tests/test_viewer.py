"""The browser viewer (web/, docs/viewer.md) in headless Chromium, Debian's package at /usr/bin/chromium (`make
test` installs it), driven by Playwright against the real server binary. Screenshots are kept in
tests/artifacts/ (gitignored) for people to look at; the tests check positions and visibility, never pixels."""

from __future__ import annotations

import json
import random
import re
import subprocess
import urllib.request
from pathlib import Path

import numpy as np
import pytest

import splendor_rl
from splendor_rl.arena_replay import ReplayWriter, game_notation
from splendor_rl.codec import to_numpy, unpack
from splendor_rl.server import find_binary

from .conftest import REPO, metric

from playwright import sync_api  # the test extra installs it

CHROMIUM = Path("/usr/bin/chromium")

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


@pytest.fixture(scope="module")
def browser():
    assert CHROMIUM.exists(), "no /usr/bin/chromium: `make test` installs Debian's chromium (apt-get install chromium)"
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM))
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def base(url) -> str:
    """The session server's viewer."""
    return viewer_address(url)


def viewer_address(url: str) -> str:
    """The viewer's address: the server's, over HTTP."""
    return url.replace("ws://", "http://").removesuffix("/ws") + "/"


@pytest.fixture
def page(browser):
    """A 1280×720 page that fails the test on any script error."""
    context = browser.new_context(viewport={"width": 1280, "height": 720}, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # The content security policy must not block anything the page does.
    page.on("console", lambda message: "Content Security Policy" in message.text and errors.append(message.text))
    yield page
    context.close()
    assert not errors, errors


@pytest.fixture(scope="module")
def traces(tmp_path_factory) -> dict[str, Path]:
    """One `splendorctl trace` file per game, seed 5, from the splendorctl built beside the server."""
    splendorctl = Path(find_binary()).with_name("splendorctl")
    directory = tmp_path_factory.mktemp("traces")
    files = {}
    for game in ("splendor", "duel"):
        files[game] = directory / f"{game}.jsonl"
        with open(files[game], "w") as out:
            subprocess.run([str(splendorctl), "trace", "--game", game, "--seed", "5"], stdout=out, check=True)
    return files


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def open_replay(page, base: str, path: Path) -> None:
    page.goto("about:blank")  # a fresh page: the table drawn from the previous file must not count
    page.goto(base + "#replay")
    page.set_input_files("#replay-file", str(path))
    page.wait_for_selector("#table .seat")


def show_position(page, base: str, path: Path, decisions: int, name: str) -> None:
    """The replay of `path` after its first `decisions` decisions, screenshotted as `name`."""
    open_replay(page, base, path)
    for _ in range(decisions):
        page.keyboard.press("ArrowRight")
    shot(page, name)


def test_page_loads(page, base):
    page.goto(base)
    assert page.title() == "Splendor viewer"
    assert page.locator("#replay-setup").is_visible()
    page.click("#to-play")
    page.wait_for_selector("#play-env option", state="attached")
    assert page.locator("#play-env option").all_inner_texts() == ["splendor-duel-v1", "splendor-v1"]
    assert page.input_value("#play-env") == "splendor-v1", "the base game is offered first, not hello's first env"


def test_the_banner_prints_the_viewers_url(page):
    """`make run`'s startup lines name the viewer's address, and the page is there."""
    server = subprocess.Popen([find_binary(), "--listen", "127.0.0.1:0", "--log-level", "warn", "--workers", "1"],
                              stdout=subprocess.PIPE, text=True)
    try:
        lines = [server.stdout.readline() for _ in range(4)]
        viewer = next(re.search(r"viewer: (http://\S+/) ", line) for line in lines if line.startswith("viewer:"))
        page.goto(viewer.group(1))
        assert page.title() == "Splendor viewer"
    finally:
        server.terminate()
        server.communicate(timeout=10)


def test_the_start_page_offers_play_and_a_sample_game(page, base):
    with urllib.request.urlopen(base + "sample.jsonl") as response:  # web/sample.jsonl, embedded in the server
        sample = [json.loads(line) for line in response.read().decode().splitlines()]
    decisions, result = sample[:-1], sample[-1]
    page.goto(base)
    page.click("#start-play")
    page.wait_for_selector("body[data-play=form]")
    page.go_back()
    page.click("#sample-replay")
    page.wait_for_selector("#table .seat")
    assert page.inner_text("#situation").startswith(f"Position 1 of {len(decisions) + 1}")
    assert decisions[0]["label"] in page.inner_text("#decision h2")
    page.keyboard.press("End")
    assert f"game over after {result['turns']} turns" in page.inner_text("#situation")
    assert drawn_points(page) == result["scores"]


def test_replay_steps_through_a_trace(page, base, traces):
    lines = [json.loads(line) for line in traces["splendor"].read_text().splitlines()]
    decisions = [line for line in lines if line["type"] == "decision"]
    open_replay(page, base, traces["splendor"])
    assert page.inner_text("#situation").startswith(f"Position 1 of {len(decisions) + 1}")
    assert decisions[0]["label"] in page.inner_text("#decision")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert decisions[2]["label"] in page.inner_text("#decision h2")
    assert page.locator(".alternatives li").count() == len(decisions[2]["legal"])
    assert page.locator(".alternatives li.chosen").inner_text().startswith(decisions[2]["label"])
    page.click("[aria-label='previous decision (←)']")
    assert decisions[1]["label"] in page.inner_text("#decision h2")
    turn = decisions[-1]["turn"] // 2
    page.fill("[aria-label=turn]", str(turn))
    page.click("text=Go to turn")
    assert f"turn {turn} " in page.inner_text("#situation")
    first = next(line for line in decisions if line["turn"] == turn - 1)  # the box counts turns from 1
    assert first["label"] in page.inner_text("#decision h2")
    page.keyboard.press("End")
    assert "Winner" in page.inner_text("#decision") or "No winner" in page.inner_text("#decision")


@pytest.mark.parametrize("game", ["splendor", "duel"])
def test_a_trace_ends_at_its_final_position(page, base, url, traces, game):
    """A trace's result line has the final state as notation only: the viewer re-plays the game on the server to
    draw it. The last position is the end (no seat to play, no final-round banner), not the last decision's."""
    lines = [json.loads(line) for line in traces[game].read_text().splitlines()]
    result = lines[-1]
    open_replay(page, base, traces[game])
    page.keyboard.press("End")
    end = table_text(page)
    assert f"game over after {result['turns']} turns" in page.inner_text("#situation")
    assert page.locator(".seat.to-play").count() == 0
    assert page.locator(".final-round, #decision .note").count() == 0
    assert drawn_points(page) == result["scores"]
    if game == "splendor":  # the bank as the final state's notation has it, white to gold
        bank = re.search(r"bank=(\d{6})", result["final_state"]).group(1)
        assert [int(text) for text in page.locator(".bank .chip .count").all_inner_texts()] == [int(d) for d in bank]
    page.keyboard.press("ArrowLeft")
    assert table_text(page) != end, "the last position is not the one before the last decision"


def test_a_trace_the_server_cannot_replay_ends_before_its_last_decision(page, base, traces, tmp_path):
    """When the re-played game is not the file's (here a final_state edited by hand), the last decision's position
    stands in, and the page says so."""
    lines = traces["splendor"].read_text().splitlines()
    result = json.loads(lines[-1])
    assert " passes=0 " in result["final_state"]
    result["final_state"] = result["final_state"].replace(" passes=0 ", " passes=1 ")
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join(lines[:-1] + [json.dumps(result)]) + "\n")
    open_replay(page, base, edited)
    page.keyboard.press("End")
    end = table_text(page)
    assert "the position before the last decision" in page.inner_text("#decision .note")
    page.keyboard.press("ArrowLeft")
    assert table_text(page) == end


def table_text(page) -> str:
    """What the table shows, its cards by id: equal for two drawings of the same position."""
    cards = [card.get_attribute("data-card") for card in page.locator("#table [data-card]").all()]
    return page.inner_text("#table") + repr(cards)


def drawn_points(page) -> list[int]:
    return [int(text.split()[0]) for text in page.locator(".seat h3 .points").all_inner_texts()]


def test_turns_count_from_one_as_on_the_text_board(page, base, url, traces):
    """The viewer's "turn N" is the text board's (render "ansi", `splendorctl play`): the first turn is turn 1."""
    decisions = [json.loads(line) for line in traces["splendor"].read_text().splitlines()][:-1]
    open_replay(page, base, traces["splendor"])
    assert "· turn 1 ·" in page.inner_text("#situation")
    envs = splendor_rl.make_vec("splendor-v1", num_envs=1, seed=5, url=url, autoreset="disabled")
    envs.reset()
    for line in decisions[:30]:
        envs.step(np.array([line["action"]]))
        page.keyboard.press("ArrowRight")
    board = envs.view()[1][0]
    envs.close()
    turn = re.search(r"turn (\d+)", board.splitlines()[0]).group(1)
    assert f"· turn {turn} ·" in page.inner_text("#situation"), board.splitlines()[0]


def test_splendor_position(page, base, traces):
    show_position(page, base, traces["splendor"], 12, "splendor")
    rows = page.locator(".market .row")
    assert rows.count() == 3
    top, bottom = rows.nth(0).bounding_box(), rows.nth(2).bounding_box()
    assert top["y"] < bottom["y"], "level 3 is drawn above level 1, as on the table"
    assert page.locator(".market .row").nth(0).locator(".deck").inner_text().startswith("L3")
    assert page.locator(".nobles .noble").count() == 3
    assert page.locator(".bank .chip").count() == 6
    assert page.locator(".seat").count() == 2
    card = page.locator(".market .card[data-card]").first
    assert card.locator(".cost .pip").count() >= 1 and card.get_attribute("aria-label")
    side = page.locator("#side").bounding_box()
    assert side["x"] >= rows.nth(0).bounding_box()["x"] + 300, "the side panel is beside the table at 1280 px"


def test_duel_position(page, base, traces):
    show_position(page, base, traces["duel"], 20, "duel")
    cells = page.locator(".board .cell")
    assert cells.count() == 25
    a1, e5 = cells.nth(0).bounding_box(), cells.nth(24).bounding_box()
    assert a1["x"] < e5["x"] and a1["y"] < e5["y"], "cells run a1…e5, left to right and top to bottom"
    assert cells.nth(12).get_attribute("data-key") == "c3"
    assert page.locator(".board .spiral polyline").count() == 1
    assert [r.locator(".card").count() for r in page.locator(".pyramid .row").all()] == [3, 4, 5]
    assert page.locator(".royals .royal").count() + page.locator(".seat .royal").count() == 4
    assert page.locator(".seat h3 .crowns").count() == 2


@pytest.mark.parametrize("trace", ["splendor", "duel"])
def test_phone_width_has_no_horizontal_overflow(browser, base, traces, trace):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    show_position(page, base, traces[trace], 1, f"{trace}-390px")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


def play_clicks(page, rng: random.Random) -> None:
    """Plays the person's seat until the game is over: each decision clicks random clickable board elements
    (which may play the only move naming them, or offer a few beside them), then a random move among those
    offered beside the element or listed; only legal moves are ever offered."""
    while True:  # selectors, not wait_for_function: the page's script-src 'self' forbids Playwright's eval
        page.wait_for_selector("body[data-play=over], button.move", timeout=20_000)
        if page.evaluate("document.body.dataset.play") == "over":
            return
        beside = page.locator(".choices button")
        playable = page.locator("#table .playable[data-key]")
        if not beside.count() and playable.count() and rng.random() < 0.7:
            playable.nth(rng.randrange(playable.count())).click()
            continue
        moves = beside if beside.count() and rng.random() < 0.5 else page.locator("button.move")
        moves.nth(rng.randrange(moves.count())).click()


def test_play_a_seeded_game_against_the_random_bot(page, base, url, tmp_path):
    # payment=choose (an env option passed through) adds the pay phase to the decisions clicked.
    start_game(page, base, "env=splendor-v1&seed=5&bot=random&seat=0&delay=0&payment=choose")
    play_clicks(page, random.Random(5))
    assert "game over" in page.inner_text("#situation")
    link = page.get_attribute("#replay-link", "href")
    with page.expect_download() as download:
        page.click("#save-replay")
    lines = [json.loads(line) for line in Path(download.value.path()).read_text().splitlines()]
    decisions, result = lines[:-1], lines[-1]
    winner = {0: "you (seat 0)", 1: "random (seat 1)"}[result["winners"][0]]
    assert f"Winner: {winner}" in page.inner_text("#decision"), "the end names the winner as the person or the bot"
    assert {line["seat"] for line in decisions} == {0, 1}
    assert all(line["action"] in line["legal"] for line in decisions)
    assert any(line["phase"] == "pay" for line in decisions)

    # The engine, stepped with the same seed and actions outside the browser, ends in the same state. On the way,
    # the page's log names each card bought or reserved as the server's text board of the person's view does (a
    # bot's blind reserve is face down until it is bought).
    logged = page.locator("[aria-label='decisions so far'] li").all_inner_texts()
    assert len(logged) == len(decisions)
    envs = splendor_rl.make_vec("splendor-v1", num_envs=1, seed=5, url=url, autoreset="disabled", payment="choose")
    envs.reset()
    named = 0
    for line, text in zip(decisions, logged):
        card = board_card(envs.view(seat=0)[1][0], line)
        assert text.endswith(f": {line['label']} {card}" if card else f": {line['label']}"), (text, card)
        named += card is not None
        envs.step(np.array([line["action"]]))
    assert game_notation(envs.get_state()[0]) == result["final_state"]
    envs.close()
    assert named >= 5, "the game bought and reserved cards"

    # The saved file opens in replay mode and ends at the same position; so does the game's link, which carries
    # the seed, options and actions.
    assert final_scores(page, base, Path(download.value.path())) == result["scores"]
    page.goto(base + link)
    page.click("#replay-start")
    page.wait_for_selector("#table .seat")
    page.keyboard.press("End")
    assert drawn_points(page) == result["scores"]


def board_card(board: str, line: dict) -> str | None:
    """How the server's text board of a decision's position spells the card its label names: the market slot of
    `buy/reserve Ln slotk`, the acting seat's hand for `buy reservedk`; None for other moves."""
    slot = re.fullmatch(r"(?:buy|reserve) L(\d) slot(\d)", line["label"])
    hand = re.fullmatch(r"buy reserved(\d)", line["label"])
    rows = board.splitlines()
    if slot:
        row = next(text for text in rows if text.startswith(f"L{slot.group(1)} ("))
        return re.search(rf"{slot.group(2)} (\[[^]]*\])", row).group(1)
    if hand:
        seat = next(k for k, text in enumerate(rows) if text.startswith(f"> seat {line['seat']}"))
        cards = next(text for text in rows[seat + 1:] if text.strip().startswith("reserved"))
        return re.findall(r"\[[^]]*\]", cards)[int(hand.group(1)) - 1]
    return None


def test_an_arena_replay_is_replayed_on_the_server(page, base, url, traces, tmp_path):
    """The arena's files have the seed and actions only: the viewer re-plays them to get the positions."""
    lines = [json.loads(line) for line in traces["splendor"].read_text().splitlines()]
    decisions, result = lines[:-1], lines[-1]
    envs = splendor_rl.make_vec("splendor-v1", num_envs=1, seed=5, url=url, autoreset="disabled")
    envs.reset()
    for line in decisions:
        envs.step(np.array([line["action"]]))
    record = {"game": 0, "seed": 5, "points": result["scores"], "winners": result["winners"], "truncated": False,
              "seats": ["random", "also random"], "places": [1, 2], "table": 0, "deal": 0, "rotation": 0}
    writer = ReplayWriter(str(tmp_path), "splendor-v1", envs.action_labels)
    writer.write(record, [(line["seat"], line["action"]) for line in decisions], envs.get_state()[0])
    envs.close()
    assert final_scores(page, base, Path(writer.path(0))) == result["scores"]
    assert page.locator(".seat h3").first.inner_text().startswith("Seat 0 · random")
    page.keyboard.press("Home")
    assert decisions[0]["label"] in page.inner_text("#decision h2")
    assert page.locator(".alternatives li").count() == len(decisions[0]["legal"])


def final_scores(page, base: str, replay: Path) -> list[int]:
    open_replay(page, base, replay)
    page.keyboard.press("End")
    assert "game over" in page.inner_text("#situation")
    return drawn_points(page)


def my_moves(page) -> list[str]:
    """The person's decisions in the page's log (seat 0), label and card."""
    logged = page.locator("[aria-label='decisions so far'] li").all_inner_texts()
    return [text.removeprefix("Seat 0 · you: ") for text in logged if text.startswith("Seat 0 · you: ")]


def click_and_wait(page, selector: str) -> None:
    """Clicks an element that plays a move, then waits for the person's next decision."""
    page.click(selector)
    page.wait_for_selector("body[data-play=your-move] button.move")


def test_a_click_on_a_card_or_tokens_chooses_the_move(page, base):
    start_game(page, base, "env=splendor-v1&seed=3&bot=random&seat=0&delay=0")
    page.wait_for_selector("button.move")
    assert page.inner_text("#situation").startswith("turn 1 ·")
    # No tokens yet: a reserve is the only move on a market card, so a click plays it.
    click_and_wait(page, ".market [data-key='L1 slot1']")
    assert re.fullmatch(r"reserve L1 slot1 \[[WUGRK] \dp: [^]]+\]", my_moves(page)[-1])
    # Colours build a take: one narrows the list, two leave three takes beside the bank, the third plays it.
    page.click(".bank [data-key=white]")
    listed = page.locator("button.move").all_inner_texts()
    assert listed and all(re.search(r"\bwhite\b", text) for text in listed) and len(my_moves(page)) == 1
    page.click(".bank [data-key=blue]")
    assert page.locator(".choices button").all_inner_texts() == [
        "take white blue green", "take white blue red", "take white blue black"]
    click_and_wait(page, ".bank [data-key=green]")
    assert my_moves(page)[-1] == "take white blue green"
    # The same colour twice takes two.
    colour = next(colour for colour in ("white", "blue", "green", "red", "black")
                  if page.locator(f"button.move:text-matches('take 2 {colour}$')").count())
    page.click(f".bank [data-key={colour}]")
    click_and_wait(page, f".bank [data-key={colour}]")
    assert my_moves(page)[-1] == f"take 2 {colour}"
    # A card that can be bought or reserved offers both beside it; the list keeps every move.
    for _ in range(30):
        labels = [re.sub(r"^\d", "", text).split(" [")[0] for text in page.locator("button.move").all_inner_texts()]
        both = [label[4:] for label in labels if label.startswith("buy L") and f"reserve {label[4:]}" in labels]
        if both:
            break
        page.locator("button.move").first.click()  # a take, or a token returned
        page.wait_for_selector("body[data-play=your-move] button.move")
    else:
        pytest.fail("no card could be bought in 30 decisions")
    page.click(f".market [data-key='{both[0]}']")
    beside = page.locator(".choices button").all_inner_texts()
    assert sorted(text.split(" [")[0] for text in beside) == [f"buy {both[0]}", f"reserve {both[0]}"], beside
    click_and_wait(page, f".choices button:has-text('buy {both[0]}')")
    assert my_moves(page)[-1] == next(text for text in beside if text.startswith("buy"))
    shot(page, "splendor-click")


def test_a_click_on_a_duel_cell_chooses_the_move(page, base):
    start_game(page, base, "env=splendor-duel-v1&seed=3&bot=random&seat=0&delay=0")
    page.wait_for_selector("button.move")
    # A gold cell: taking it is the only move naming it, then the card to reserve is chosen on the pyramid.
    gold = page.locator(".board .cell.gold.playable").first.get_attribute("data-key")
    page.click(f".board [data-key={gold}]")
    page.wait_for_selector("body[data-play=your-move] button.move")
    assert my_moves(page) == [f"gold {gold}"] and "(reserve)" in page.inner_text("#situation")
    click_and_wait(page, ".pyramid .card.playable >> nth=0")
    assert re.fullmatch(r"reserve L\d slot\d \[\S+ \dp[^:]*: [^]]+\]", my_moves(page)[-1])
    # Two gem cells side by side: the takes through both are offered beside them, or played if there is one.
    gems = {cell.get_attribute("data-key") for cell in page.locator(".board .cell.playable:not(.gold)").all()}
    first, second = next((cell, chr(ord(cell[0]) + 1) + cell[1]) for cell in sorted(gems)
                         if chr(ord(cell[0]) + 1) + cell[1] in gems)
    page.click(f".board [data-key={first}]")
    page.click(f".board [data-key={second}]")
    beside = page.locator(".choices button").all_inner_texts()
    if beside:
        assert 2 <= len(beside) <= 3 and len(my_moves(page)) == 2
        assert all(f" {first} " in f" {text} " and f" {second} " in f" {text} " for text in beside), beside
    else:
        page.wait_for_selector("body[data-play=your-move] button.move")
        assert my_moves(page)[2] == f"take {first} {second}"


def test_play_duel_shows_bot_decisions_and_hints(page, base):
    start_game(page, base, "env=splendor-duel-v1&seed=3&bot=greedy&seat=1&delay=0")
    page.wait_for_selector("button.move")
    assert page.locator("#decision li").count() >= 1, "the bot's first decision is listed with its label"
    page.click("#hint")
    page.wait_for_selector("button.move.hinted")
    assert page.locator("#table .hinted").count() >= 1
    shot(page, "duel-play")


def test_a_server_token_is_asked_for(browser):
    with splendor_rl.LocalServer(args=("--token", "open sesame")) as server:
        page = browser.new_page()
        page.goto(viewer_address(server.url) + "#play")
        page.wait_for_selector("#token-form:not([hidden])")
        assert "token" in page.inner_text("#status")
        page.fill("#token", "open sesame")
        page.click("#token-form button")
        page.wait_for_selector("#play-env option", state="attached")
        assert page.locator("#token-form").is_hidden()
        page.close()


# --- Safe to link (issue 22): headers, links that only fill in, and a play page that receives only its seat. ---

def sent_ops(page) -> list[str]:
    """The ops of every WebSocket frame the page sends, in order, filled in as they go."""
    ops: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: ops.append(unpack(payload)["op"])))
    return ops


def start_game(page, base: str, query: str) -> None:
    """Opens a play link, which fills the form, and clicks Start."""
    page.goto(base + "#play?" + query)
    page.wait_for_selector("body[data-play=form]")
    page.click("#play-start")


def test_the_viewer_cannot_be_framed_and_loads_only_its_own_files(page, base):
    response = page.goto(base)
    headers = response.headers
    assert headers["x-frame-options"] == "DENY"
    policy = headers["content-security-policy"]
    for directive in ("frame-ancestors 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
                      "default-src 'none'"):
        assert directive in policy
    page.click("#to-play")
    page.wait_for_selector("#play-env option", state="attached")  # modules ran and the WebSocket connected

    # A page of another origin that frames the viewer gets an empty frame: the viewer's page never runs in it.
    other = page.context.new_page()
    other.set_content(f'<iframe id="viewer" src="{base}#play"></iframe>')
    other.wait_for_timeout(500)  # room for a wrongly framed page to start its modules
    titles = [frame.evaluate("document.title") for frame in other.frames[1:] if frame.url.startswith("http")]
    assert "Splendor viewer" not in titles
    other.close()


@pytest.mark.parametrize("link", [
    "#play?env=splendor-v1&seed=1&bot=mcts%3A800&seat=1&players=3&delay=0&max_rounds=20",
    "#replay?env=splendor-v1&seed=5&players=2&actions=0.0.0",
])
def test_a_link_alone_starts_nothing(page, link):
    # A server of its own: the metrics count this page's requests only, not those of a game another test left.
    with splendor_rl.LocalServer() as server:
        link_starts_nothing(page, viewer_address(server.url), link)


def link_starts_nothing(page, base: str, link: str) -> None:
    ops = sent_ops(page)
    made, searched = metric(base, 'splendor_requests_total{op="make"}'), metric(base, 'splendor_requests_total{op="bot_actions"}')
    page.goto(base + link)
    if link.startswith("#play"):
        page.wait_for_selector("body[data-play=form]")
        assert page.input_value("#play-env") == "splendor-v1"
        assert page.input_value("#play-bot") == "mcts:800"
        assert [page.input_value(f"#play-setup [name={name}]") for name in ("seed", "seat", "players")] == ["1", "1", "3"]
        assert "max_rounds=20" in page.inner_text("#play-extras")
    else:
        page.wait_for_selector("#replay-offer:not([hidden])")
        assert "3 decisions" in page.inner_text("#replay-offer")
    page.wait_for_timeout(1000)  # room for a page that would start a game by itself to do so
    assert set(ops) <= {"hello"}, ops
    assert metric(base, 'splendor_requests_total{op="make"}') == made
    assert metric(base, 'splendor_requests_total{op="bot_actions"}') == searched
    assert page.locator("#game").is_hidden()

    page.click("#play-start" if link.startswith("#play") else "#replay-start")  # one click starts it
    page.wait_for_selector("#table .seat")
    assert "make" in ops


def hidden_in(view: dict, person: int) -> list[str]:
    """What in a view the person's seat may not see: the referee's fields, another seat's blind reserves."""
    leaks = [key for key in ("notation", "decks", "chance") if key in view]
    for seat, table in enumerate(view.get("seats", [])):
        for card in table.get("reserved", []):
            if seat != person and card.get("hidden") and card.get("card") is not None:
                leaks.append(f"seat {seat}'s blind reserve {card['card']}")
    return leaks


def test_a_game_sends_the_page_only_its_seat(page, base):
    person = 0
    received: list[dict] = []
    sent: list[dict] = []
    page.on("websocket", lambda ws: (ws.on("framereceived", lambda payload: received.append(unpack(payload))),
                                     ws.on("framesent", lambda payload: sent.append(unpack(payload)))))
    start_game(page, base, f"env=splendor-v1&seed=11&bot=random&seat={person}&players=3&delay=0&max_rounds=25")
    play_clicks(page, random.Random(11))
    with page.expect_download() as download:
        page.click("#save-replay")
    lines = [json.loads(line) for line in Path(download.value.path()).read_text().splitlines()]

    end = next(k for k, reply in enumerate(received)
               if "obs" in reply and (any(to_numpy(reply["terminated"])) or any(to_numpy(reply["truncated"]))))
    during, blind_seen = received[: end + 1], 0
    for reply in during:
        assert "states" not in reply
        for view in reply.get("views", []):
            assert hidden_in(view, person) == [], view
            blind_seen += sum(card.get("card") is None for table in view["seats"] for card in table["reserved"])
        if "obs" in reply:
            others = to_numpy(reply["to_play"]) != person
            assert not to_numpy(reply["obs"])[others].any(), "another seat's observation reached the page"
            assert not to_numpy(reply["mask"])[others].any(), "another seat's mask reached the page"
    game_requests = sent[: next(k for k, request in enumerate(sent) if request["op"] == "close")]
    assert {request["op"] for request in game_requests} <= {"hello", "make", "reset", "step", "view", "bot_actions"}
    assert all(request.get("seat") == person for request in game_requests if request["op"] in ("view", "reset", "step"))

    # The test is not vacuous: the bots did reserve blind, and the page drew those cards face down; the replay,
    # written after the end from the server's referee views, has them face up.
    assert blind_seen > 0
    assert any(card.get("hidden") and card.get("card") is not None
               for line in lines[:-1] for seat, table in enumerate(line["state"]["seats"]) if seat != person
               for card in table["reserved"])
    assert lines[-1]["type"] == "result" and lines[-1]["final_view"]["notation"] == lines[-1]["final_state"]


# --- A newcomer's table (issue 35): bots that can play it, errors that end the wait, hints from a strong bot. ---

def offered_bots(page) -> list[str]:
    return page.locator("#play-bot option").all_inner_texts()


@pytest.fixture(scope="module")
def two_player_networks(tmp_path_factory):
    """A server whose baselines are the shipped 2-player networks only: its 3-player tables have no network."""
    folder = tmp_path_factory.mktemp("two-player-baselines")
    for path in (REPO / "baselines").glob("*-2p*.safetensors"):
        (folder / path.name).write_bytes(path.read_bytes())
    with splendor_rl.LocalServer(args=("--baselines", str(folder))) as server:
        yield viewer_address(server.url)


NETWORK = ["baseline", "baseline+search:64", "baseline+search:1024"]


def choose_players(page, players: int) -> None:
    page.fill("#play-setup [name=players]", str(players))
    page.dispatch_event("#play-setup [name=players]", "input")


def test_the_form_offers_only_bots_that_can_play_the_table(page, two_player_networks):
    page.goto(two_player_networks + "#play")
    page.wait_for_selector("body[data-play=form]")
    assert offered_bots(page) == ["random", "greedy", "mcts", *NETWORK]  # hello lists a 2-player network
    choose_players(page, 3)
    assert offered_bots(page) == ["random", "greedy", "mcts"], "no network plays 3 players"
    assert page.input_value("#play-bot") == "greedy"
    page.select_option("#play-env", "splendor-duel-v1")
    assert offered_bots(page) == ["random", "greedy", "mcts", *NETWORK]


@pytest.mark.parametrize("players", [3, 4])
def test_the_shipped_networks_play_every_splendor_table(page, base, players):
    page.goto(base + "#play")
    page.wait_for_selector("body[data-play=form]")
    choose_players(page, players)
    assert offered_bots(page) == ["random", "greedy", "mcts", *NETWORK]


def test_a_failed_game_says_why_and_offers_a_new_game(page, two_player_networks):
    # A link may name a bot the table cannot play (it fills the form as it is): the bot's first move is refused.
    start_game(page, two_player_networks, "env=splendor-v1&seed=2&bot=baseline&seat=1&players=3&delay=0")
    page.wait_for_selector("body[data-play=error]")
    assert "no baseline network for splendor-v1 with 3 players" in page.inner_text("#situation")
    assert "thinking" not in page.inner_text("#situation")
    page.click("#new-game")
    page.wait_for_selector("body[data-play=form]")
    assert page.input_value("#play-setup [name=players]") == "3" and page.is_visible("#play-start")


def test_the_hint_comes_from_the_strongest_bot_of_the_table(page, base):
    ops = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: ops.append(unpack(payload))))
    start_game(page, base, "env=splendor-v1&seed=4&bot=baseline&seat=0&delay=0")
    page.wait_for_selector("body[data-play=your-move] button.move")
    assert page.input_value("[aria-label='hint bot']") == "baseline+search:1024"
    page.click("#hint")
    page.wait_for_selector("button.move.hinted")
    assert [op["bot"] for op in ops if op["op"] == "bot_actions"][-1] == "baseline+search:1024"


def test_the_end_of_a_duel_game_shows_the_page_from_its_top(page, base):
    start_game(page, base, "env=splendor-duel-v1&seed=6&bot=random&seat=0&delay=0")
    page.wait_for_selector("button.move")
    assert page.evaluate("document.documentElement.scrollHeight > innerHeight"), "a page that cannot scroll: no test"
    rng = random.Random(6)
    while page.evaluate("document.body.dataset.play") != "over":  # the moves' list at the page's foot, in sight
        page.wait_for_selector("body[data-play=over], body[data-play=your-move] button.move", timeout=20_000)
        if page.evaluate("document.body.dataset.play") == "your-move":
            page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
            moves = page.locator("button.move")
            moves.nth(rng.randrange(moves.count())).click(no_wait_after=True)
    page.wait_for_selector("#save-replay")
    assert page.evaluate("scrollY") == 0
    assert "Winner: " in page.inner_text("#decision")
