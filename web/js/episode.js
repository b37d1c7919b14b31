// One seeded game on the server: a self-play batch of one env, made and reset
// with the seed, stepped one decision at a time. Both modes use it: play
// steps a person's and the bots' choices, replay re-plays a recorded list
// of actions to get the views a file leaves out.
import { array, int32Tensor } from "./wire.js";

export class Episode {
  // start makes and resets the env with the game's options (players,
  // payment…); the game is the seed's (PROTOCOL.md §6). Self-play lets the
  // page decide every seat; autoreset "disabled" keeps the ended game on the table.
  // With `seat` (a person's), replies carry only that seat's observation and
  // mask (PROTOCOL.md §5, replies for one seat): what the bots' seats see
  // never reaches the page.
  static async start(connection, { env, seed, options = {} }, seat = null) {
    const made = await connection.request("make", { env, num_envs: 1, seed: BigInt(seed),
      options: { ...options, mode: "self_play", autoreset: "disabled" } });
    const episode = new Episode(connection, made.handle, made.spec, BigInt(seed), seat);
    episode.update(await connection.request("reset", episode.fields({})));
    return episode;
  }

  constructor(connection, handle, spec, seed, seat) {
    Object.assign(this, { connection, handle, spec, seed, seat, actions: [] });
  }

  // fields is a reset's or step's request: the handle, and the seat if any.
  fields(more) {
    return this.seat === null ? { handle: this.handle, ...more } : { handle: this.handle, seat: this.seat, ...more };
  }

  // update reads a batch reply's row 0.
  update(reply) {
    this.mask = array(reply.mask);
    this.toPlay = array(reply.to_play)[0];
    this.terminated = array(reply.terminated)[0] === 1;
    this.truncated = array(reply.truncated)[0] === 1;
    this.rewards = Array.from(array(reply.rewards));
  }

  get over() {
    return this.terminated || this.truncated;
  }

  // legal lists the mask's moves with their labels (none while another
  // seat than a person's plays: the page is not told that seat's moves).
  legal() {
    const moves = [];
    this.mask.forEach((bit, action) => bit && moves.push({ action, label: this.spec.action_labels[action] }));
    return moves;
  }

  // view is the table as `seat` sees it (no seat: the referee's, hiding nothing).
  async view(seat = null) {
    const request = { handle: this.handle, env_ids: [0] };
    if (seat !== null) request.seat = seat;
    const reply = await this.connection.request("view", request);
    return reply.views[0];
  }

  async step(action) {
    this.update(await this.connection.request("step", this.fields({ actions: int32Tensor([action]) })));
    this.actions.push(action);
  }

  // advice is the action `bot` would choose now. Its seed is derived from the
  // game's seed and the decision number, so a game replays the same advice.
  async advice(bot) {
    const seed = (this.seed * 1000003n + BigInt(this.actions.length)) % (1n << 64n);
    const reply = await this.connection.request("bot_actions", { handle: this.handle, env_ids: [0], bot, seed });
    return array(reply.actions)[0];
  }

  close() {
    return this.connection.request("close", { handle: this.handle }).catch(() => {});
  }
}
