// The page: picks the mode from the URL's hash (docs/viewer.md), keeps one
// connection to the server, and asks for the server's token when it has one.
//   #replay                               the start page: play, the sample game, or open a file
//   #replay?env=…&seed=…&players=…&actions=3.17.…   offer to re-play a seeded game on the server
//   #play                                 choose a game
//   #play?env=…&seed=…&bot=…&seat=…&players=…&delay=…   the form, filled in
// A link only fills in: any page can link here, so nothing runs on the server
// (no env is made, no bot searches) until the person clicks.
import { h } from "./dom.js";
import { Connection, WireError } from "./wire.js";
import { envOf, parts } from "./game.js";
import { readGames } from "./record.js";
import { Replay, framesOf, rebuild } from "./replay.js";
import { Play, tableBots } from "./play.js";

const $ = (id) => document.getElementById(id);
const ui = Object.fromEntries(["table", "situation", "controls", "decision", "moves"].map((id) => [id, $(id)]));
const TOKEN = "splendor-viewer-token";
let connection = null;
let shown = null; // the Replay or Play on the table

// connect returns the open connection, or opens one. A server with a token
// answers a hello without it with `unauthorized`: the page then asks for it.
async function connect() {
  if (connection && !connection.closedBy) return connection;
  try {
    connection = await Connection.open(sessionStorage.getItem(TOKEN) ?? "");
  } catch (error) {
    if (error instanceof WireError && error.code === "unauthorized") {
      $("token-form").hidden = false;
      throw new Error("this server needs its token: type it above");
    }
    throw error;
  }
  $("token-form").hidden = true;
  return connection;
}

function status(text) {
  $("status").textContent = text;
}

// route shows what the hash asks for; failures are reported, never thrown.
async function route() {
  shown?.close?.();
  shown?.stop?.();
  shown = null;
  status("");
  delete document.body.dataset.play;
  const [mode, query] = location.hash.slice(1).split("?");
  const params = new URLSearchParams(query ?? "");
  for (const [id, current] of [["to-play", mode === "play"], ["to-replay", mode !== "play"]]) {
    if (current) $(id).setAttribute("aria-current", "page");
    else $(id).removeAttribute("aria-current");
  }
  $("replay-setup").hidden = mode === "play";
  $("play-setup").hidden = mode !== "play";
  $("game").hidden = true;
  $("replay-offer").hidden = mode === "play" || !params.has("env");
  ui.moves.replaceChildren();
  try {
    if (mode === "play") fillForm(await offerGames(), params);
    else if (params.has("env")) offerReplay(params);
  } catch (error) {
    status(`Error: ${error.message}`);
  }
}

// The form's own fields; any other parameter of a link (env options, delay)
// is shown under the form and sent with it.
const FORM_FIELDS = ["env", "players", "seed", "seat", "bot"];
let linkExtras = new URLSearchParams();

// fillForm puts a link's parameters into the play form, without starting.
function fillForm(hello, params) {
  const form = $("play-setup");
  const choice = $("play-env");
  if (hello.envs.includes(params.get("env"))) {
    choice.value = params.get("env");
    choice.onchange();
  }
  if (params.has("players")) {
    form.elements.players.value = params.get("players");
    form.elements.players.oninput(); // the table's bots
  }
  const bot = params.get("bot");
  if (bot && ![...$("play-bot").options].some((option) => option.value === bot)) {
    $("play-bot").append(h("option", {}, bot));
  }
  for (const name of FORM_FIELDS.slice(2)) {
    if (params.has(name)) form.elements[name].value = params.get(name);
  }
  linkExtras = new URLSearchParams([...params].filter(([name]) => !FORM_FIELDS.includes(name)));
  $("play-extras").hidden = linkExtras.size === 0;
  $("play-extras").textContent = `Also from the link: ${[...linkExtras].map(([k, v]) => `${k}=${v}`).join(", ")}`;
  document.body.dataset.play = "form";
}

// startPlay starts the game the form describes: called by its Start button only.
async function startPlay(params) {
  shown?.stop?.();
  $("play-setup").hidden = true;
  $("game").hidden = false;
  const [open, components] = await Promise.all([connect(), parts(params.get("env"))]);
  const game = {
    env: params.get("env"), seed: params.get("seed") ?? "1", options: envOptions(open.hello, params),
    seat: Number(params.get("seat") ?? 0), bot: params.get("bot") ?? "random",
    bots: tableBots(open.hello, params.get("env"), Number(params.get("players") ?? 2)),
    delay: Number(params.get("delay") ?? 400),
  };
  shown = new Play(ui, open, game, components);
  await shown.run();
}

// envOptions reads the env's options from the URL (players=3, payment=choose…):
// those hello lists for the env, typed as it says, but for the ones both modes
// set themselves (seats are the page's to play, and `seat` is the person's).
function envOptions(hello, params) {
  const own = new Set(["mode", "autoreset", "seat", "bots"]);
  const options = hello.env_options[params.get("env")] ?? [];
  return Object.fromEntries(options.filter(({ name }) => params.has(name) && !own.has(name))
    .map(({ name, type }) => [name, type === "int" ? Number(params.get(name)) : params.get(name)]));
}

// The game the play form offers first: the base game, whatever order hello lists.
const FIRST_GAME = "splendor-v1";

// offerGames fills the play form with the envs the server announces, bounds
// the players field by the chosen env's `players` option and offers the
// bots that can play the table (hello).
async function offerGames() {
  const { hello } = await connect();
  const [choice, bot] = [$("play-env"), $("play-bot")];
  const [players, seat] = ["players", "seat"].map((name) => document.querySelector(`#play-setup [name=${name}]`));
  choice.replaceChildren(...hello.envs.map((env) => h("option", { selected: env === FIRST_GAME }, env)));
  players.oninput = () => {
    Object.assign(seat, { max: Number(players.value) - 1 });
    const bots = tableBots(hello, choice.value, Number(players.value));
    const keep = bots.includes(bot.value) ? bot.value : "greedy";
    bot.replaceChildren(...bots.map((name) => h("option", { selected: name === keep }, name)));
  };
  choice.onchange = () => {
    const option = hello.env_options[choice.value].find(({ name }) => name === "players");
    Object.assign(players, { min: option.min, max: option.max, value: option.default });
    players.closest("label").hidden = option.min === option.max;
    players.oninput();
  };
  choice.onchange();
  return hello;
}

// offerReplay tells what a replay link holds; the button re-plays it.
function offerReplay(params) {
  const actions = (params.get("actions") ?? "").split(".").filter(Boolean).length;
  $("replay-offer-text").textContent =
    `This link holds a game of ${params.get("env")}, seed ${params.get("seed") ?? "0"}, ${actions} decisions.`;
  $("replay-start").onclick = () => replayLink(params).catch((error) => status(`Error: ${error.message}`));
}

async function replayLink(params) {
  $("replay-offer").hidden = true;
  const open = await connect();
  const frames = await rebuild(open, {
    env: params.get("env"), seed: params.get("seed") ?? "0", options: envOptions(open.hello, params),
    actions: (params.get("actions") ?? "").split(".").filter(Boolean).map(Number),
  });
  await showReplay(frames);
}

// showReplay puts a game's positions on the table; `entrants` names the
// players of each seat when the file says (the arena's result line does).
async function showReplay(frames, entrants = []) {
  const components = await parts(envOf(frames[0].view));
  $("game").hidden = false;
  const seatNames = entrants.map((name, seat) => `Seat ${seat} · ${name}`);
  shown = new Replay(ui, frames, { parts: components, seatNames });
}

// openFile reads a replay file and shows its first game; a file of several
// games offers the others in a list.
async function openFile(file) {
  await openText(file.name, () => file.text());
}

// openSample shows the trace embedded beside the page (web/sample.jsonl).
async function openSample() {
  await openText("the sample game", async () => {
    const response = await fetch("sample.jsonl");
    if (!response.ok) throw new Error(`GET sample.jsonl: ${response.status}`);
    return response.text();
  });
}

async function openText(name, read) {
  try {
    const games = readGames(await read());
    const choice = $("replay-game");
    const names = games.map((game, k) => h("option", { value: k }, `game ${game.game}, seed ${game.seed}`));
    choice.replaceChildren(...names);
    choice.closest("label").hidden = games.length < 2;
    choice.onchange = () => showGame(games[Number(choice.value)]).catch((error) => status(`Error: ${error.message}`));
    status("");
    await showGame(games[0]);
  } catch (error) {
    status(`Cannot open ${name}: ${error.message}`);
  }
}

async function showGame(game) {
  shown?.close?.();
  await showReplay(await framesOf(game, connect), game.result?.entrants);
}

$("replay-file").addEventListener("change", (event) => event.target.files[0] && openFile(event.target.files[0]));
$("sample-replay").addEventListener("click", openSample);
document.addEventListener("dragover", (event) => {
  event.preventDefault();
  document.body.classList.add("drop-target");
});
document.addEventListener("dragleave", () => document.body.classList.remove("drop-target"));
document.addEventListener("drop", (event) => {
  event.preventDefault();
  document.body.classList.remove("drop-target");
  if (event.dataTransfer.files[0]) openFile(event.dataTransfer.files[0]);
});
// Start: the one way a game begins. The address shows the game (a link to
// it fills the form again) without a hashchange, which would route.
$("play-setup").addEventListener("submit", (event) => {
  event.preventDefault();
  const params = new URLSearchParams([...new FormData(event.target), ...linkExtras]);
  history.replaceState(null, "", `#play?${params}`);
  status("");
  startPlay(params).catch(failed);
});

// failed ends a game that cannot go on (a bot refused, the connection lost):
// the situation line says why instead of waiting, and New game offers the
// form again, filled in as it was.
function failed(error) {
  status(`Error: ${error.message}`);
  ui.situation.textContent = `Error: ${error.message}`;
  document.body.dataset.play = "error";
  shown?.stop?.();
  ui.controls.replaceChildren(h("button", { type: "button", id: "new-game", onclick: route }, "New game"));
}
$("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  sessionStorage.setItem(TOKEN, $("token").value);
  route();
});
window.addEventListener("hashchange", route);
if (!location.hash) history.replaceState(null, "", "#replay");
route();
