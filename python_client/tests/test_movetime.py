import subprocess
import sys

from splendor_rl.movetime import times

from .conftest import HANG_SECONDS, subprocess_env


def movetime(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "splendor_rl.movetime", *args], capture_output=True, text=True,
                          timeout=HANG_SECONDS, env=subprocess_env())


def test_movetime_times_the_bots_first_decisions_of_each_game(url):
    proc = movetime("baseline+search:32", "--games", "3", "--decisions", "2", "--url", url)
    assert proc.returncode == 0, proc.stderr
    summary, each = proc.stdout.splitlines()
    assert summary.startswith("baseline+search:32 on splendor-v1: median ")
    assert summary.endswith("6 decisions of 3 games against greedy")
    assert len(each.split()[1:]) == 6 and all(float(ms) >= 0 for ms in each.split()[1:])


def test_movetime_stops_at_the_end_of_a_game(url):
    # Greedy against greedy ends every game long before 500 decisions of one seat; each of the 3 games at a table
    # of 3 seats the bot in another seat.
    for env_id, players in (("splendor-v1", 3), ("splendor-duel-v1", 2)):
        seconds = times("greedy", env_id=env_id, players=players, games=players, decisions=500, url=url)
        assert 3 * players <= len(seconds) < 500 * players


def test_movetime_refuses_an_unknown_bot_or_table_in_one_line(url):
    for args, said in ((["nosuchbot"], "nosuchbot"), (["greedy", "--env", "splendor-duel-v1", "--players", "3"],
                                                      "players")):
        proc = movetime(*args, "--url", url)
        assert proc.returncode == 1 and proc.stdout == "" and proc.stderr.count("\n") == 1, proc.stderr
        assert proc.stderr.startswith("splendor_rl.movetime: BadOption") and said in proc.stderr
