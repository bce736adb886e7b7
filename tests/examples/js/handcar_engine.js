#!/usr/bin/env node
// handcar: a Mexican Train engine for node 18+ (node's own modules only), written from
// docs/protocol.md and the rule pages (`mtrain rules`, `mtrain explain`) alone, as the
// server of a club's big-table app would be. (A handcar is the small pump trolley a
// track gang rides along the line.) It speaks protocol v1 on stdin/stdout and plays one
// fixed rule set, whatever rule set a request carries.
//
// Its shape: a game model of its own (Tile, Train, Player, Table: a table is made afresh
// from each request's state, nothing kept between requests) and a protocol layer below
// it (Server: reads a line, checks its fields, asks the table, writes one line).
//
// What it plays (handcar-rules.yaml beside it says the same, option by option):
//   - a double-15 set (136 tiles); round r's engine is [16-r, 16-r] (ENG-1), set aside
//     before the deal (ENG-2); sixteen rounds, [15-15] down to [0-0] (MATCH-1); round r
//     starts at seat (r - 1) mod n (SEAT-3);
//   - a hand table of its own, 6 to 12 players: 6 take 16, 7 take 15, 8 take 14, 9 take
//     13, 10 take 12, 11 take 12, 12 take 11 (the last two leave 3 tiles to draw); any
//     other count is refused (DEAL-7), and so is a table of any other size;
//   - one tile a turn from the start (FIRST-7); anyone may open the Mexican Train
//     (FIRST-8); nobody has to start their own train first;
//   - doubles are open: a double asks its layer for another tile (DBL-1), which may go
//     only on the first double laid this turn, on the Mexican Train, or on a train the
//     player may use that does not end in an open double (DBL-3); a double left open
//     binds the players after it, the oldest covered first (DBL-6, DBL-7), until every
//     tile of its number is on the table (DBL-9); a cover may go on any train (TRAIN-6);
//   - a player who cannot play draws one tile and must lay it if it fits anywhere they
//     may play, or passes with the marker up (TURN-2, TURN-3, TURN-4, DBL-5); a marker
//     comes off when its owner plays on their own train, a cover included (MARK-3);
//   - a round gone out: everyone scores the pips left in hand, the one out 0 (SCORE-1,
//     SCORE-5); lowest match total wins, equal totals share the win (MATCH-2, MATCH-4).
//   House rules, which no known value describes (the file says `other`), and which work
//   together: the big table's small boneyard runs dry early, and then
//   - "dry yard" (blocked_round: other): a pass made while the boneyard is empty ends
//     the round at once, blocked (the passer's marker goes up, the seat moves on, the
//     pass is counted in `passes`). Nobody waits for a round of passes (END-3) or for the
//     table to be stuck for good (END-2): the first player who cannot play stops it.
//   - "light hand" (scoring: other): a blocked round has winners: every player tied on
//     the fewest pips left in hand scores 0, every other player the pips in their hand.
//     A round gone out is scored the penalty way (SCORE-5). Not penalty-blocked-winner,
//     which takes the fewest tiles first and one winner.
//
// Planted bugs, all off unless --bugs is given (--fixed says the same as nothing;
// --bug=NAME turns on one only). Each names the clause it breaks (written before any
// suite command ran on it):
//   1. "cover-keeps-marker" (breaks MARK-3): the marker is lifted only by a tile that
//      extends the owner's train, not by one that covers a double on it (the author
//      wrote the lift in the "extend" branch of the play and not in the "cover" one).
//   2. "thirteen" (breaks DBL-9): a double counts as released once 13 tiles of its
//      number are on the table (puremco's sheet says "all 13 tiles", a double-12 count;
//      a double-15 number is on 16 tiles), so it stops binding three tiles early.
//   3. "quiet-follow-pass" (breaks DBL-5): a player who passes in the follow-up of their
//      own double (they could not follow it, even after drawing) keeps the marker down.
'use strict';

const readline = require('readline');

const HIGHEST = 15;
const HAND_SIZES = {6: 16, 7: 15, 8: 14, 9: 13, 10: 12, 11: 12, 12: 11};
const ROUNDS = HIGHEST + 1;
const BUG_NAMES = ['cover-keeps-marker', 'thirteen', 'quiet-follow-pass'];

const RULES = {
  name: 'handcar',
  options: {
    tile_set: 'double-15', hand_sizes: 'custom', engine_procedure: 'set-aside',
    starting_seat: 'rotate', first_turn: 'single', mexican_first_turn: 'anyone',
    own_train_first: 'not-required', doubles: 'open', follow_up: 'restricted',
    double_order: 'oldest-first', uncoverable_double: 'released',
    marker_removal: 'owner-plays-own', draw_rule: 'draw-one', blocked_round: 'other',
    scoring: 'other', blank_values: 'face', tie_rule: 'shared', match_length: 'full',
  },
  hand_sizes: Object.fromEntries(Object.entries(HAND_SIZES).map(([k, v]) => [k, v])),
};

const bugs = new Set();
for (const arg of process.argv.slice(2)) {
  if (arg === '--bugs') BUG_NAMES.forEach((b) => bugs.add(b));
  else if (arg.startsWith('--bug=')) bugs.add(arg.slice(6));
  else if (arg !== '--fixed') {
    process.stderr.write(`handcar: unknown argument ${arg}\n`);
    process.exit(2);
  }
}

class BadRequest extends Error {}
class Unsupported extends Error {}
class RefusedSetup extends Error {
  constructor(message, clause) { super(message); this.clause = clause; }
}
class Refusal {
  constructor(reason, clause) { this.reason = reason; this.clause = clause; }
}

// ---------------------------------------------------------------- the game model

class Tile {
  constructor(a, b) { this.hi = Math.max(a, b); this.lo = Math.min(a, b); }
  static parse(text, where) {
    const m = typeof text === 'string' ? /^(\d{1,2})-(\d{1,2})$/.exec(text) : null;
    if (!m) throw new BadRequest(`${where}: not a tile: ${JSON.stringify(text)}`);
    const a = Number(m[1]), b = Number(m[2]);
    if (a > 18 || b > 18) throw new BadRequest(`${where}: not a tile: ${text}`);
    return new Tile(a, b);
  }
  get key() { return `${this.hi}-${this.lo}`; }
  get isDouble() { return this.hi === this.lo; }
  get pips() { return this.hi + this.lo; }
  has(n) { return this.hi === n || this.lo === n; }
  other(n) { return this.hi === n ? this.lo : this.hi; }
  inSet() { return this.hi <= HIGHEST; }
}

class Train {
  constructor(owner, tiles, end, marker) {
    this.owner = owner; // a seat, or 'mexican'
    this.tiles = tiles; // texts, near end first
    this.end = end;
    this.marker = marker;
  }
  endsInDouble() {
    if (!this.tiles.length) return false;
    const [a, b] = this.tiles[this.tiles.length - 1].split('-');
    return a === b;
  }
  lay(tile) {
    this.tiles.push(`${this.end}-${tile.other(this.end)}`);
    this.end = tile.other(this.end);
  }
  toJSON() {
    const t = {tiles: this.tiles, end: this.end};
    if (this.owner !== 'mexican') t.marker = this.marker;
    return t;
  }
}

class Player {
  constructor(seat, hand) { this.seat = seat; this.hand = hand; } // hand: Map key -> Tile
  holds(tile) { return this.hand.has(tile.key); }
  pips() { let s = 0; for (const t of this.hand.values()) s += t.pips; return s; }
  sortedHand() {
    return [...this.hand.values()].sort((x, y) => y.hi - x.hi || y.lo - x.lo).map((t) => t.key);
  }
}

function scoreRound(players, winner) {
  if (winner !== null) return players.map((p) => (p.seat === winner ? 0 : p.pips())); // SCORE-5
  // house rule "light hand": the lightest hands score 0 in a blocked round
  const pips = players.map((p) => p.pips());
  const least = Math.min(...pips);
  return pips.map((v) => (v === least ? 0 : v));
}

class Table {
  constructor(s) {
    this.round = s.round; this.engine = s.engine; this.enginePlaced = s.engine_placed;
    this.phase = s.phase; this.seat = s.seat; this.starter = s.starter;
    this.players = s.hands.map((h, i) => new Player(i, new Map(h.map((t) => {
      const tile = Tile.parse(t, `hands[${i}]`); return [tile.key, tile];
    }))));
    this.boneyard = s.boneyard.map((t) => Tile.parse(t, 'boneyard'));
    this.trains = s.trains.map((t, i) => new Train(i, [...t.tiles], t.end, t.marker));
    this.mexican = new Train('mexican', [...s.mexican.tiles], s.mexican.end, false);
    this.openDoubles = [...s.open_doubles];
    this.turnDoubles = [...s.turn_doubles];
    this.drawn = s.drawn === null ? null : Tile.parse(s.drawn, 'drawn');
    this.firstTurns = [...s.first_turns];
    this.passes = s.passes; this.scores = [...s.scores]; this.outs = [...s.outs];
    this.result = s.result;
  }

  get n() { return this.players.length; }
  get mover() { return this.players[this.seat]; }
  train(ref) { return ref === 'mexican' ? this.mexican : this.trains[ref]; }

  onTable(number) {
    let count = 0;
    for (const t of [...this.trains, this.mexican]) {
      for (const text of t.tiles) if (text.split('-').map(Number).includes(number)) count += 1;
    }
    return count;
  }

  released(ref) { // DBL-9: every tile of its number is on the table
    const number = this.train(ref).end;
    return this.onTable(number) >= (bugs.has('thirteen') ? 13 : HIGHEST + 1);
  }

  // the open doubles of earlier turns that still bind (DBL-6), oldest first (DBL-7)
  binding() {
    return this.openDoubles.filter((r) => !this.turnDoubles.includes(r) && !this.released(r));
  }

  // why the mover may not lay `tile` on train `ref` (null: they may), first clause first
  playRefusal(tile, ref) {
    const train = this.train(ref);
    if (!tile.has(train.end)) return new Refusal(`${tile.key} does not match the open end ${train.end}`, 'TRAIN-2');
    if (this.drawn && this.drawn.key !== tile.key) return new Refusal(`only the drawn ${this.drawn.key} may be played`, 'TURN-3');
    const bound = this.binding();
    const covers = this.openDoubles.includes(ref) && !this.turnDoubles.includes(ref) && bound.includes(ref);
    const ownOrOpen = ref === 'mexican' || ref === this.seat || train.marker;
    if (!ownOrOpen && !covers) return new Refusal(`seat ${ref}'s train is closed to you`, 'TRAIN-4');
    if (bound.length) {
      if (ref === bound[0]) return null;
      if (covers) return new Refusal('the oldest open double is covered first', 'DBL-7');
      return new Refusal('an open double must be covered first', 'DBL-6');
    }
    if (this.turnDoubles.length) { // DBL-3: the restricted follow-up
      if (ref === this.turnDoubles[0] || ref === 'mexican') return null;
      if (this.openDoubles.includes(ref)) return new Refusal('the follow-up goes on the first double, the Mexican Train or a train not ending in an open double', 'DBL-3');
    }
    return null;
  }

  plays() {
    const out = [];
    const refs = [...this.trains.map((_, i) => i), 'mexican'];
    const tiles = this.drawn ? [this.drawn] : [...this.mover.hand.values()];
    for (const tile of tiles) {
      for (const ref of refs) if (!this.playRefusal(tile, ref)) out.push({type: 'play', tile: tile.key, train: ref});
    }
    return out;
  }

  legal() {
    if (this.phase === 'over') return [];
    const plays = this.plays();
    if (plays.length) return plays;
    if (this.drawn === null && this.boneyard.length) return [{type: 'draw'}]; // TURN-2
    return [{type: 'pass'}]; // TURN-4
  }

  refusal(action) {
    if (this.phase === 'over') return new Refusal('the round is over', 'END-1');
    if (action.type === 'end-chain') return new Refusal('every turn is a one-tile turn', 'FIRST-7');
    if (action.type === 'play') {
      const tile = action.tile;
      if (!tile.inSet()) return new Refusal(`${tile.key} is not a tile of the double-15 set`, 'SET-1');
      if (!this.mover.holds(tile)) return new Refusal(`you do not hold ${tile.key}`, 'TURN-7');
      if (action.train !== 'mexican' && action.train >= this.n) return new Refusal(`there is no train ${action.train}`, 'TRAIN-1');
      return this.playRefusal(tile, action.train);
    }
    const canPlay = this.plays().length > 0;
    if (canPlay) return new Refusal('you can play a tile', 'TURN-1');
    if (action.type === 'draw') {
      if (this.drawn) return new Refusal('one draw a turn', 'TURN-2');
      if (!this.boneyard.length) return new Refusal('the boneyard is empty', 'TURN-4');
      return null;
    }
    if (this.drawn === null && this.boneyard.length) return new Refusal('draw first', 'TURN-2');
    return null;
  }

  endTurn() {
    this.turnDoubles = []; this.drawn = null;
    this.firstTurns = this.firstTurns.filter((s) => s !== this.seat);
    this.seat = (this.seat + 1) % this.n; this.phase = 'start';
  }

  finish(winner) {
    const round = scoreRound(this.players, winner);
    this.phase = 'over';
    this.result = {end: winner === null ? 'blocked' : 'domino', winner, scores: round};
    this.scores = this.scores.map((v, i) => v + round[i]);
    if (winner !== null) this.outs[winner] += 1;
  }

  apply(action) {
    if (action.type === 'play') {
      const {tile} = action; const ref = action.train; const train = this.train(ref);
      const covering = this.openDoubles.includes(ref);
      train.lay(tile);
      this.mover.hand.delete(tile.key);
      if (covering) this.openDoubles = this.openDoubles.filter((r) => r !== ref);
      if (ref === this.seat && (!covering || !bugs.has('cover-keeps-marker'))) train.marker = false; // MARK-3
      this.passes = 0; this.drawn = null;
      if (this.mover.hand.size === 0) { // END-1: a last double stays open, uncovered
        if (tile.isDouble) this.openDoubles.push(ref);
        this.turnDoubles = [];
        this.finish(this.seat);
      } else if (tile.isDouble) { // DBL-1
        this.openDoubles.push(ref); this.turnDoubles.push(ref); this.phase = 'follow';
      } else this.endTurn();
    } else if (action.type === 'draw') {
      const tile = this.boneyard.shift();
      this.mover.hand.set(tile.key, tile); this.drawn = tile;
    } else { // pass: TURN-4, DBL-5
      const inFollow = this.turnDoubles.length > 0;
      if (!(inFollow && bugs.has('quiet-follow-pass'))) this.trains[this.seat].marker = true;
      const dry = this.boneyard.length === 0;
      if (dry) this.passes += 1;
      this.endTurn();
      if (dry) this.finish(null); // house rule "dry yard"
    }
  }

  toJSON() {
    return {
      round: this.round, engine: this.engine, engine_placed: this.enginePlaced,
      phase: this.phase, seat: this.seat, starter: this.starter,
      hands: this.players.map((p) => p.sortedHand()),
      boneyard: this.boneyard.map((t) => t.key),
      trains: this.trains.map((t) => t.toJSON()), mexican: this.mexican.toJSON(),
      open_doubles: this.openDoubles, turn_doubles: this.turnDoubles,
      drawn: this.drawn ? this.drawn.key : null, first_turns: this.firstTurns,
      passes: this.passes, scores: this.scores, outs: this.outs, result: this.result,
    };
  }

  static deal(players, round, order) {
    if (!(players in HAND_SIZES)) {
      throw new RefusedSetup(`handcar deals to 6 to 12 players, not ${players}`, 'DEAL-7');
    }
    if (round > ROUNDS) throw new RefusedSetup(`a match has ${ROUNDS} rounds`, 'MATCH-1');
    const engine = HIGHEST - (round - 1);
    const tiles = order.map((t, i) => Tile.parse(t, `order[${i}]`));
    const want = new Set();
    for (let a = 0; a <= HIGHEST; a += 1) for (let b = 0; b <= a; b += 1) if (!(a === engine && b === engine)) want.add(`${a}-${b}`);
    const seen = new Set(tiles.map((t) => t.key));
    if (tiles.length !== want.size || seen.size !== tiles.length || [...seen].some((k) => !want.has(k))) {
      throw new BadRequest(`order: not the ${want.size} tiles of the double-15 set without [${engine}-${engine}]`);
    }
    const size = HAND_SIZES[players];
    const hands = [];
    for (let s = 0; s < players; s += 1) hands.push(tiles.slice(s * size, (s + 1) * size).map((t) => t.key));
    const starter = (round - 1) % players; // SEAT-3
    return new Table({
      round, engine, engine_placed: true, phase: 'start', seat: starter, starter, hands,
      boneyard: tiles.slice(players * size).map((t) => t.key),
      trains: hands.map(() => ({tiles: [], end: engine, marker: false})),
      mexican: {tiles: [], end: engine}, open_doubles: [], turn_doubles: [], drawn: null,
      first_turns: hands.map((_, i) => i), passes: 0, scores: hands.map(() => 0),
      outs: hands.map(() => 0), result: null,
    });
  }
}

function winners(table) {
  if (table.phase !== 'over' || table.round < ROUNDS) return []; // MATCH-1
  const least = Math.min(...table.scores);
  return table.scores.map((v, i) => [v, i]).filter(([v]) => v === least).map(([, i]) => i); // MATCH-4
}

// ---------------------------------------------------------------- the protocol layer

const FIELDS = {
  hello: ['protocol', 'harness'], deal: ['ruleset', 'players', 'round', 'order', 'draw'],
  legal: ['ruleset', 'state'], apply: ['ruleset', 'state', 'action'],
  score: ['ruleset', 'state', 'winner'], winners: ['ruleset', 'state'], shutdown: [],
};
const STATE_FIELDS = ['round', 'engine', 'engine_placed', 'phase', 'seat', 'starter', 'hands',
  'boneyard', 'trains', 'mexican', 'open_doubles', 'turn_doubles', 'drawn', 'first_turns',
  'passes', 'scores', 'outs', 'result'];

const isInt = (v) => Number.isInteger(v) && v >= 0;

function readState(s) {
  if (!s || typeof s !== 'object' || Array.isArray(s)) throw new BadRequest('state: not an object');
  for (const f of STATE_FIELDS) if (!(f in s)) throw new BadRequest(`state: ${f} missing`);
  for (const f of Object.keys(s)) if (!STATE_FIELDS.includes(f)) throw new BadRequest(`state: unknown field ${f}`);
  for (const f of ['round', 'engine', 'seat', 'starter', 'passes']) if (!isInt(s[f])) throw new BadRequest(`state.${f}: not a whole number`);
  if (!['engine', 'start', 'chain', 'follow', 'over'].includes(s.phase)) throw new BadRequest(`state.phase: ${JSON.stringify(s.phase)}`);
  for (const f of ['hands', 'boneyard', 'trains', 'open_doubles', 'turn_doubles', 'first_turns', 'scores', 'outs']) {
    if (!Array.isArray(s[f])) throw new BadRequest(`state.${f}: not a list`);
  }
  const n = s.hands.length;
  if (s.trains.length !== n || s.scores.length !== n || s.outs.length !== n) throw new BadRequest('state: hands, trains, scores and outs differ in length');
  if (!(n in HAND_SIZES)) throw new RefusedSetup(`handcar plays 6 to 12 players, not ${n}`, 'DEAL-7');
  if (s.round < 1 || s.round > ROUNDS) throw new RefusedSetup(`a match has rounds 1 to ${ROUNDS}`, 'MATCH-1');
  if (s.phase === 'engine' || s.phase === 'chain') throw new Unsupported(`state.phase: ${s.phase} never arises under handcar's rules`);
  if (s.seat >= n || s.starter >= n) throw new BadRequest('state.seat: no such seat');
  s.hands.forEach((h, i) => { if (!Array.isArray(h)) throw new BadRequest(`state.hands[${i}]: not a list`); });
  for (const t of [...s.trains, s.mexican]) {
    if (!t || !Array.isArray(t.tiles) || !isInt(t.end)) throw new BadRequest('state: a train is malformed');
  }
  for (const r of [...s.open_doubles, ...s.turn_doubles]) {
    if (r !== 'mexican' && !(isInt(r) && r < n)) throw new BadRequest(`state: no train ${JSON.stringify(r)}`);
  }
  return new Table(s);
}

function readAction(a) {
  if (!a || typeof a !== 'object' || Array.isArray(a)) throw new BadRequest('action: not an object');
  const kinds = {play: ['type', 'tile', 'train'], draw: ['type'], pass: ['type'], 'end-chain': ['type']};
  if (!(a.type in kinds)) throw new BadRequest(`action.type: ${JSON.stringify(a.type)}`);
  for (const f of Object.keys(a)) if (!kinds[a.type].includes(f)) throw new BadRequest(`action: unknown field ${f}`);
  for (const f of kinds[a.type]) if (!(f in a)) throw new BadRequest(`action: ${f} missing`);
  if (a.type !== 'play') return {type: a.type};
  if (a.train !== 'mexican' && !isInt(a.train)) throw new BadRequest(`action.train: ${JSON.stringify(a.train)}`);
  return {type: 'play', tile: Tile.parse(a.tile, 'action.tile'), train: a.train};
}

function handle(req) {
  const type = req.type;
  if (!(type in FIELDS)) throw new BadRequest(`unknown request type ${JSON.stringify(type)}`);
  for (const f of Object.keys(req)) {
    if (f !== 'id' && f !== 'type' && !FIELDS[type].includes(f)) throw new BadRequest(`unknown field ${f}`);
  }
  if (type === 'hello') {
    if (req.protocol !== 1) return {error: {kind: 'protocol-version', message: `handcar speaks protocol 1, not ${req.protocol}`, supported: [1]}};
    return {protocol: 1, name: 'handcar', version: '1.0.0', rules: RULES};
  }
  if (type === 'shutdown') return {};
  if (type === 'deal') {
    if (!isInt(req.players) || !isInt(req.round) || req.round < 1 || !Array.isArray(req.order)) throw new BadRequest('deal: players, round and order are needed');
    return {state: Table.deal(req.players, req.round, req.order).toJSON()};
  }
  const table = readState(req.state);
  if (type === 'legal') return {actions: table.legal()};
  if (type === 'apply') {
    const action = readAction(req.action);
    const refused = table.refusal(action);
    if (refused) return {refused: {reason: refused.reason, clause: refused.clause}};
    table.apply(action);
    return {state: table.toJSON()};
  }
  if (type === 'score') {
    let winner;
    if ('winner' in req) {
      winner = req.winner;
      if (winner !== null && !(isInt(winner) && winner < table.n)) throw new BadRequest(`winner: ${JSON.stringify(winner)}`);
    } else {
      if (table.phase !== 'over' || !table.result) throw new BadRequest('score: the round is not over and no winner is named');
      winner = table.result.winner;
    }
    if (winner !== null && table.players[winner].hand.size) throw new BadRequest(`winner: seat ${winner} still holds tiles`);
    return {scores: scoreRound(table.players, winner)};
  }
  return {winners: winners(table)};
}

function answer(line) {
  let req;
  try { req = JSON.parse(line); } catch (e) {
    return {id: null, ok: false, error: {kind: 'bad-request', message: `not JSON: ${e.message}`}};
  }
  const id = req && typeof req === 'object' && Number.isInteger(req.id) ? req.id : null;
  if (id === null) return {id, ok: false, error: {kind: 'bad-request', message: 'no integer id'}};
  try {
    const out = handle(req);
    if (out.error) return {id, ok: false, error: out.error};
    return {id, ok: true, ...out};
  } catch (e) {
    if (e instanceof BadRequest) return {id, ok: false, error: {kind: 'bad-request', message: e.message}};
    if (e instanceof Unsupported) return {id, ok: false, error: {kind: 'unsupported', message: e.message}};
    if (e instanceof RefusedSetup) return {id, ok: false, error: {kind: 'refused-setup', message: e.message, clause: e.clause}};
    process.stderr.write(`handcar: ${e.stack}\n`);
    return {id, ok: false, error: {kind: 'internal', message: String(e.message)}};
  }
}

const rl = readline.createInterface({input: process.stdin, terminal: false});
rl.on('line', (raw) => {
  const line = raw.replace(/^\uFEFF/, '').replace(/\r$/, '');
  if (!line.trim()) return;
  const out = answer(line);
  process.stdout.write(`${JSON.stringify(out)}\n`);
  let type = null;
  try { type = JSON.parse(line).type; } catch (e) { type = null; }
  if (type === 'shutdown') { rl.close(); process.exit(0); }
});
rl.on('close', () => process.exit(0));
