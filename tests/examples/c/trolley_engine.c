/* trolley: Mexican Train for the big table, in C, written from docs/protocol.md alone.
 *
 * Our club plays on a double-15 set, two to ten players around two pushed-together
 * tables. Built with `gcc -O2 -std=gnu11 -o trolley trolley_engine.c trolley_json.c`;
 * run `./trolley` (the planted bugs on) or `./trolley --fixed` (off), and it speaks
 * protocol v1 on stdin and stdout.
 *
 * THE RULES IT PLAYS (its truth; its hello and trolley-rules.yaml say the same):
 * - a double-15 set (136 tiles); round 1 on [15-15], then down to [0-0]: 16 rounds.
 * - our own hand sizes: 2-3 players 16, 4 players 15, 5 players 14, 6 players 13,
 *   7 players 12, 8 players 11, 9 players 10, 10 players 9. Other counts are refused
 *   (DEAL-7).
 * - the engine is set aside before the deal; the start rotates (round r at seat
 *   (r - 1) mod n); one tile a turn from the start; anyone may open the Mexican Train;
 *   nobody has to start their own train first.
 * - doubles are open: the layer plays another tile, anywhere they may play (the double
 *   included); a double left open binds the next players, who may play only by
 *   covering it, oldest first; one nobody can cover stays open.
 * - a marker comes off when its owner plays on their own train (covering included).
 * - scoring: penalty at face value, lowest total wins, a tie shared.
 * - HOUSE RULE 1 (`draw_rule: other`), "the big table draws deep": at a table of six or
 *   more, a player who cannot play draws one tile at a time until one can be played or
 *   the boneyard is empty, and passes only then; at a table of two to five a player
 *   draws one tile and passes if it cannot be played. Either way only the tile just
 *   drawn may be played.
 * - HOUSE RULE 2 (`blocked_round: other`), "three knocks": with the boneyard empty,
 *   three passes in a row end the round, blocked (at a table of two, two passes: a full
 *   round), whether or not someone could still play later.
 * - HOUSE RULE 3, a variation played with --duty-pass (the same options: it is a draw
 *   rule, `draw_rule: other`): a player bound to cover an open double of an earlier turn
 *   who holds no tile to cover it does not draw: their marker goes up and the duty passes
 *   on (TURN-4's pass, no draw first). Elsewhere drawing is as above.
 *
 * THREE PLANTED BUGS, written down before the suite ran; on by default, all off with
 * --fixed, one off with --fixed=N (N = 1, 2, 3; repeatable):
 * 1. "newest-double" (breaks DBL-7): of several open doubles laid on earlier turns, the
 *    player must cover the newest one; the list is walked from its end.
 * 2. "first-tile-free" (breaks SCORE-5, a hand's value): counting a hand, the loop
 *    starts at its second tile, so the first tile listed (the hand's highest) is not
 *    counted.
 * 3. "anyone-lifts" (breaks MARK-3): a marker comes off when anyone plays on that train,
 *    not only its owner.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trolley_json.h"

#define HIGHEST 15                /* double-15 */
#define ROUNDS (HIGHEST + 1)
#define SET_TILES ((HIGHEST + 1) * (HIGHEST + 2) / 2)
#define ALL_TILES 190             /* tiles of a double-18 set: any tile the wire may name */
#define MOST_SEATS 20             /* the most a state may seat */
#define MOST_PLAYERS 10
#define MEXICAN (-1)

static const int HAND_SIZE[MOST_PLAYERS + 1] = {0, 0, 16, 16, 15, 14, 13, 12, 11, 10, 9};

static int bug[4] = {0, 1, 1, 1};
static int duty_pass; /* HOUSE RULE 3, the variation: --duty-pass */

/* --- tiles ----------------------------------------------------------------------- */

static int tile_id(int a, int b) {
    int hi = a > b ? a : b, lo = a > b ? b : a;
    return hi * (hi + 1) / 2 + lo;
}

static int tile_hi[ALL_TILES], tile_lo[ALL_TILES];

static void tiles_init(void) {
    for (int hi = 0; hi <= 18; hi++)
        for (int lo = 0; lo <= hi; lo++) {
            tile_hi[tile_id(hi, lo)] = hi;
            tile_lo[tile_id(hi, lo)] = lo;
        }
}

/* A tile's text "a-b", ends 0 to 18 written without leading zeros; -1 if not one. */
static int parse_end(const char **p) {
    const char *s = *p;
    if (*s < '0' || *s > '9') return -1;
    int v = *s++ - '0';
    if (v != 0 && *s >= '0' && *s <= '9') v = v * 10 + (*s++ - '0');
    if (v > 18) return -1;
    *p = s;
    return v;
}

static int tile_from(const jval *v, int *near) {
    if (!v || v->kind != J_STRING) return -1;
    const char *p = v->text;
    int a = parse_end(&p);
    if (a < 0 || *p++ != '-') return -1;
    int b = parse_end(&p);
    if (b < 0 || *p) return -1;
    if (near) *near = a;
    return tile_id(a, b);
}

static void put_tile(jbuf *b, int hi, int lo) {
    char text[16];
    snprintf(text, sizeof text, "\"%d-%d\"", hi, lo);
    buf_text(b, text);
}

/* --- the state ------------------------------------------------------------------- */

enum { START, FOLLOW, OVER };

typedef struct {
    int n;
    int round, engine, phase, seat, starter;
    unsigned char hand[MOST_SEATS][ALL_TILES];
    int boneyard[ALL_TILES], nbone;
    int near[MOST_SEATS + 1][ALL_TILES], far[MOST_SEATS + 1][ALL_TILES];
    int length[MOST_SEATS + 1], end[MOST_SEATS + 1], marker[MOST_SEATS + 1];
    int open[MOST_SEATS + 1], nopen;      /* trains ending in an open double, oldest first */
    int turn[MOST_SEATS + 1], nturn;      /* those laid this turn */
    int drawn;                            /* -1: none */
    int first[MOST_SEATS];
    int passes;
    long long scores[MOST_SEATS], outs[MOST_SEATS];
    int over_end;                         /* 0 domino, 1 blocked */
    int winner;                           /* -1: none */
    long long round_scores[MOST_SEATS];
} table;

/* train index: a seat 0..n-1, or n for the Mexican Train */

static table T;

static int knocks_to_block(void);

typedef struct {
    int kind; /* 0 play, 1 draw, 2 pass, 3 end-chain */
    int tile, train;
} action;

/* --- errors ------------------------------------------------------------------------ */

static char problem[512];
static const char *problem_kind;
static const char *problem_clause;

static int bad(const char *message) {
    if (!problem_kind) {
        problem_kind = "bad-request";
        snprintf(problem, sizeof problem, "%s", message);
    }
    return 0;
}

static int refused_setup(const char *message, const char *clause) {
    if (!problem_kind) {
        problem_kind = "refused-setup";
        problem_clause = clause;
        snprintf(problem, sizeof problem, "%s", message);
    }
    return 0;
}

/* --- reading a state ----------------------------------------------------------------- */

static int is_int(const jval *v, long long low, long long high) {
    return v && v->kind == J_NUMBER && v->whole && !v->too_big && v->integer >= low
        && v->integer <= high;
}

static int only_keys(const jval *o, const char *const *keys, const char *what) {
    if (!o || o->kind != J_OBJECT) {
        char m[128];
        snprintf(m, sizeof m, "%s is not an object", what);
        return bad(m);
    }
    for (size_t i = 0; i < o->count; i++) {
        int known = 0;
        for (const char *const *k = keys; *k; k++)
            if (strcmp(*k, o->keys[i]) == 0) known = 1;
        if (!known) {
            char m[256];
            snprintf(m, sizeof m, "%s has an unknown field '%.100s'", what, o->keys[i]);
            return bad(m);
        }
    }
    for (const char *const *k = keys; *k; k++)
        if (!json_get(o, *k)) {
            char m[256];
            snprintf(m, sizeof m, "%s lacks the field '%s'", what, *k);
            return bad(m);
        }
    return 1;
}

static int train_ref(const jval *v, int n) {
    if (v && v->kind == J_STRING && strcmp(v->text, "mexican") == 0) return n;
    if (is_int(v, 0, MOST_SEATS - 1) && v->integer < n) return (int)v->integer;
    return -1;
}

static int read_train(const jval *v, int t, int personal) {
    static const char *const personal_keys[] = {"tiles", "end", "marker", NULL};
    static const char *const mexican_keys[] = {"tiles", "end", NULL};
    if (!only_keys(v, personal ? personal_keys : mexican_keys, "a train")) return 0;
    const jval *tiles = json_get(v, "tiles");
    if (tiles->kind != J_ARRAY || tiles->count > SET_TILES) return bad("a train's tiles");
    int at = T.engine;
    T.length[t] = 0;
    for (size_t i = 0; i < tiles->count; i++) {
        int near;
        int id = tile_from(tiles->items[i], &near);
        if (id < 0 || id >= SET_TILES) return bad("a train holds a tile not of double-15");
        int far = tile_hi[id] == near ? tile_lo[id] : tile_hi[id];
        if (near != at) return bad("a train's tiles do not match end to end (TRAIN-2)");
        T.near[t][i] = near;
        T.far[t][i] = far;
        T.length[t]++;
        at = far;
    }
    if (!is_int(json_get(v, "end"), 0, HIGHEST)) return bad("a train's end");
    T.end[t] = (int)json_get(v, "end")->integer;
    if (T.end[t] != at) return bad("a train's end is not its last tile's far end");
    T.marker[t] = 0;
    if (personal) {
        const jval *m = json_get(v, "marker");
        if (m->kind != J_BOOL) return bad("a train's marker is not true or false");
        T.marker[t] = m->truth;
    }
    return 1;
}

static int read_list(const jval *v, int *out, int *count, int n, const char *what) {
    char m[128];
    snprintf(m, sizeof m, "%s is not a list of trains", what);
    if (!v || v->kind != J_ARRAY || v->count > (size_t)n + 1) return bad(m);
    *count = 0;
    for (size_t i = 0; i < v->count; i++) {
        int t = train_ref(v->items[i], n);
        if (t < 0) return bad(m);
        out[(*count)++] = t;
    }
    return 1;
}

static int read_scores(const jval *v, long long *out, int n, const char *what) {
    char m[128];
    snprintf(m, sizeof m, "%s is not a list of one count a seat", what);
    if (!v || v->kind != J_ARRAY || v->count != (size_t)n) return bad(m);
    for (int i = 0; i < n; i++) {
        if (!is_int(v->items[i], 0, 2147483647LL)) return bad(m);
        out[i] = v->items[i]->integer;
    }
    return 1;
}

static int read_state(const jval *s) {
    static const char *const keys[] = {
        "round", "engine", "engine_placed", "phase", "seat", "starter", "hands", "boneyard",
        "trains", "mexican", "open_doubles", "turn_doubles", "drawn", "first_turns",
        "passes", "scores", "outs", "result", NULL};
    if (!only_keys(s, keys, "the state")) return 0;
    memset(&T, 0, sizeof T);
    const jval *hands = json_get(s, "hands");
    if (hands->kind != J_ARRAY || hands->count < 1 || hands->count > MOST_SEATS)
        return bad("the state's hands are not a list of 1 to 20 hands");
    int n = T.n = (int)hands->count;
    if (!is_int(json_get(s, "round"), 1, 2147483647LL)) return bad("the state's round");
    T.round = (int)json_get(s, "round")->integer;
    if (!is_int(json_get(s, "engine"), 0, 18)) return bad("the state's engine");
    T.engine = (int)json_get(s, "engine")->integer;
    const jval *placed = json_get(s, "engine_placed");
    if (placed->kind != J_BOOL) return bad("engine_placed is not true or false");
    const jval *phase = json_get(s, "phase");
    if (phase->kind != J_STRING) return bad("the state's phase");
    if (strcmp(phase->text, "start") == 0) T.phase = START;
    else if (strcmp(phase->text, "follow") == 0) T.phase = FOLLOW;
    else if (strcmp(phase->text, "over") == 0) T.phase = OVER;
    else if (strcmp(phase->text, "engine") == 0 || strcmp(phase->text, "chain") == 0) {
        problem_kind = "unsupported";
        snprintf(problem, sizeof problem,
                 "phase '%s': trolley sets the engine aside and plays one tile a turn",
                 phase->text);
        return 0;
    } else return bad("the state's phase is not one of engine, start, chain, follow, over");
    if (!placed->truth) return bad("the engine is not placed outside the engine phase");
    if (!is_int(json_get(s, "seat"), 0, n - 1)) return bad("the state's seat");
    T.seat = (int)json_get(s, "seat")->integer;
    if (!is_int(json_get(s, "starter"), 0, n - 1)) return bad("the state's starter");
    T.starter = (int)json_get(s, "starter")->integer;
    /* only now that the rest is read: a table trolley's rules never seat (DEAL-7) */
    if (n < 2 || n > MOST_PLAYERS) {
        char m[160];
        snprintf(m, sizeof m, "trolley has no hand size for %d players (it deals to 2 to 10)",
                 n);
        return refused_setup(m, "DEAL-7");
    }
    if (T.round > ROUNDS) return refused_setup("a double-15 match has 16 rounds", "MATCH-1");
    static unsigned char seen[ALL_TILES];
    memset(seen, 0, sizeof seen);
    for (int p = 0; p < n; p++) {
        const jval *h = hands->items[p];
        if (h->kind != J_ARRAY) return bad("a hand is not a list of tiles");
        for (size_t i = 0; i < h->count; i++) {
            int id = tile_from(h->items[i], NULL);
            if (id < 0 || id >= SET_TILES) return bad("a hand holds a tile not of double-15");
            if (seen[id]++) return bad("a tile is on the table twice");
            T.hand[p][id] = 1;
        }
    }
    const jval *bone = json_get(s, "boneyard");
    if (bone->kind != J_ARRAY || bone->count > SET_TILES) return bad("the boneyard");
    for (size_t i = 0; i < bone->count; i++) {
        int id = tile_from(bone->items[i], NULL);
        if (id < 0 || id >= SET_TILES) return bad("the boneyard holds a tile not of double-15");
        if (seen[id]++) return bad("a tile is on the table twice");
        T.boneyard[T.nbone++] = id;
    }
    const jval *trains = json_get(s, "trains");
    if (trains->kind != J_ARRAY || trains->count != (size_t)n)
        return bad("the trains are not one a seat");
    for (int p = 0; p < n; p++)
        if (!read_train(trains->items[p], p, 1)) return 0;
    if (!read_train(json_get(s, "mexican"), n, 0)) return 0;
    for (int t = 0; t <= n; t++)
        for (int i = 0; i < T.length[t]; i++) {
            int id = tile_id(T.near[t][i], T.far[t][i]);
            if (seen[id]++) return bad("a tile is on the table twice");
        }
    if (!read_list(json_get(s, "open_doubles"), T.open, &T.nopen, n, "open_doubles")) return 0;
    if (!read_list(json_get(s, "turn_doubles"), T.turn, &T.nturn, n, "turn_doubles")) return 0;
    const jval *drawn = json_get(s, "drawn");
    T.drawn = -1;
    if (drawn->kind != J_NULL) {
        T.drawn = tile_from(drawn, NULL);
        if (T.drawn < 0 || T.drawn >= SET_TILES || !T.hand[T.seat][T.drawn])
            return bad("drawn is not a tile in the hand of the seat to act");
    }
    const jval *first = json_get(s, "first_turns");
    if (first->kind != J_ARRAY || first->count > (size_t)n) return bad("first_turns");
    for (size_t i = 0; i < first->count; i++) {
        if (!is_int(first->items[i], 0, n - 1)) return bad("first_turns holds a bad seat");
        T.first[first->items[i]->integer] = 1;
    }
    if (!is_int(json_get(s, "passes"), 0, 2147483647LL)) return bad("the state's passes");
    if (json_get(s, "passes")->integer >= knocks_to_block() && T.phase != OVER) {
        /* HOUSE RULE 2: the third knock ends the round, so no table goes on past it */
        problem_kind = "unsupported";
        snprintf(problem, sizeof problem, "%lld passes in a row and the round goes on: three "
                 "knocks end a round at trolley's table", json_get(s, "passes")->integer);
        return 0;
    }
    T.passes = (int)json_get(s, "passes")->integer;
    if (!read_scores(json_get(s, "scores"), T.scores, n, "scores")) return 0;
    if (!read_scores(json_get(s, "outs"), T.outs, n, "outs")) return 0;
    const jval *result = json_get(s, "result");
    T.winner = -1;
    if ((result->kind == J_NULL) != (T.phase != OVER))
        return bad("a result is given exactly when the phase is over");
    if (result->kind != J_NULL) {
        static const char *const result_keys[] = {"end", "winner", "scores", NULL};
        if (!only_keys(result, result_keys, "the result")) return 0;
        const jval *e = json_get(result, "end");
        if (e->kind != J_STRING || (strcmp(e->text, "domino") && strcmp(e->text, "blocked")))
            return bad("the result's end is not domino or blocked");
        T.over_end = strcmp(e->text, "blocked") == 0;
        const jval *w = json_get(result, "winner");
        if (w->kind != J_NULL) {
            if (!is_int(w, 0, n - 1)) return bad("the result's winner");
            T.winner = (int)w->integer;
        }
        if ((T.winner < 0) != T.over_end) return bad("a domino has a winner, a block none");
        if (!read_scores(json_get(result, "scores"), T.round_scores, n, "the result's scores"))
            return 0;
    }
    return 1;
}

/* --- writing a state ----------------------------------------------------------------- */

static void put_train_ref(jbuf *b, int t) {
    if (t == T.n) buf_text(b, "\"mexican\"");
    else buf_int(b, t);
}

static void put_train_tiles(jbuf *b, int t) {
    buf_text(b, "{\"tiles\":[");
    for (int i = 0; i < T.length[t]; i++) {
        if (i) buf_char(b, ',');
        put_tile(b, T.near[t][i], T.far[t][i]);
    }
    buf_text(b, "],\"end\":");
    buf_int(b, T.end[t]);
}

static void put_counts(jbuf *b, const long long *v) {
    buf_char(b, '[');
    for (int p = 0; p < T.n; p++) {
        if (p) buf_char(b, ',');
        buf_int(b, v[p]);
    }
    buf_char(b, ']');
}

static void put_state(jbuf *b) {
    static const char *const phases[] = {"start", "follow", "over"};
    buf_text(b, "{\"round\":");
    buf_int(b, T.round);
    buf_text(b, ",\"engine\":");
    buf_int(b, T.engine);
    buf_text(b, ",\"engine_placed\":true,\"phase\":\"");
    buf_text(b, phases[T.phase]);
    buf_text(b, "\",\"seat\":");
    buf_int(b, T.seat);
    buf_text(b, ",\"starter\":");
    buf_int(b, T.starter);
    buf_text(b, ",\"hands\":[");
    for (int p = 0; p < T.n; p++) {
        if (p) buf_char(b, ',');
        buf_char(b, '[');
        int any = 0;
        for (int id = SET_TILES - 1; id >= 0; id--)
            if (T.hand[p][id]) {
                if (any++) buf_char(b, ',');
                put_tile(b, tile_hi[id], tile_lo[id]);
            }
        buf_char(b, ']');
    }
    buf_text(b, "],\"boneyard\":[");
    for (int i = 0; i < T.nbone; i++) {
        if (i) buf_char(b, ',');
        put_tile(b, tile_hi[T.boneyard[i]], tile_lo[T.boneyard[i]]);
    }
    buf_text(b, "],\"trains\":[");
    for (int p = 0; p < T.n; p++) {
        if (p) buf_char(b, ',');
        put_train_tiles(b, p);
        buf_text(b, T.marker[p] ? ",\"marker\":true}" : ",\"marker\":false}");
    }
    buf_text(b, "],\"mexican\":");
    put_train_tiles(b, T.n);
    buf_text(b, "},\"open_doubles\":[");
    for (int i = 0; i < T.nopen; i++) {
        if (i) buf_char(b, ',');
        put_train_ref(b, T.open[i]);
    }
    buf_text(b, "],\"turn_doubles\":[");
    for (int i = 0; i < T.nturn; i++) {
        if (i) buf_char(b, ',');
        put_train_ref(b, T.turn[i]);
    }
    buf_text(b, "],\"drawn\":");
    if (T.drawn < 0) buf_text(b, "null");
    else put_tile(b, tile_hi[T.drawn], tile_lo[T.drawn]);
    buf_text(b, ",\"first_turns\":[");
    int any = 0;
    for (int p = 0; p < T.n; p++)
        if (T.first[p]) {
            if (any++) buf_char(b, ',');
            buf_int(b, p);
        }
    buf_text(b, "],\"passes\":");
    buf_int(b, T.passes);
    buf_text(b, ",\"scores\":");
    put_counts(b, T.scores);
    buf_text(b, ",\"outs\":");
    put_counts(b, T.outs);
    buf_text(b, ",\"result\":");
    if (T.phase != OVER) {
        buf_text(b, "null}");
        return;
    }
    buf_text(b, T.over_end ? "{\"end\":\"blocked\",\"winner\":" : "{\"end\":\"domino\",\"winner\":");
    if (T.winner < 0) buf_text(b, "null");
    else buf_int(b, T.winner);
    buf_text(b, ",\"scores\":");
    put_counts(b, T.round_scores);
    buf_text(b, "}}");
}

/* --- the rules ----------------------------------------------------------------------- */

static int in_list(const int *list, int count, int t) {
    for (int i = 0; i < count; i++)
        if (list[i] == t) return 1;
    return 0;
}

static int draws_deep(void) { return T.n >= 6; } /* HOUSE RULE 1: six or more draw deep */

static int knocks_to_block(void) { return T.n < 3 ? T.n : 3; } /* HOUSE RULE 2 */

/* The open double of an earlier turn the player must cover now (DBL-6, DBL-7), or -1. */
static int duty(void) {
    int earlier[MOST_SEATS + 1], count = 0;
    for (int i = 0; i < T.nopen; i++)
        if (!in_list(T.turn, T.nturn, T.open[i])) earlier[count++] = T.open[i];
    if (!count) return -1;
    if (bug[1]) return earlier[count - 1]; /* BUG 1: the newest first */
    return earlier[0];                      /* DBL-7: the oldest first; DBL-10: even uncoverable */
}

/* TRAIN-4: the player's own train, the Mexican Train, and marked trains (MARK-1). */
static int may_use(int t) {
    return t == T.seat || t == T.n || T.marker[t];
}

/* The trains the player to act may play on now. */
static int trains_open(int *out) {
    int count = 0;
    int due = duty();
    if (due >= 0) {
        out[count++] = due; /* DBL-6: cover the open double, nothing else */
        return count;
    }
    for (int t = 0; t <= T.n; t++)
        if (may_use(t) || (T.phase == FOLLOW && in_list(T.turn, T.nturn, t)))
            out[count++] = t; /* TRAIN-4; DBL-2 and TRAIN-6: this turn's double wherever it lies */
    return count;
}

static int fits(int id, int t) { return tile_hi[id] == T.end[t] || tile_lo[id] == T.end[t]; }

static int plays(action *out) {
    int trains[MOST_SEATS + 1], nt = trains_open(trains), count = 0;
    for (int i = 0; i < nt; i++)
        for (int id = 0; id < SET_TILES; id++) {
            if (!T.hand[T.seat][id] || (T.drawn >= 0 && id != T.drawn)) continue; /* TURN-3 */
            if (fits(id, trains[i])) {
                out[count].kind = 0;
                out[count].tile = id;
                out[count++].train = trains[i];
            }
        }
    return count;
}

/* Every legal action: the plays (TURN-1: a play must be made), or else one of draw or pass. */
static int legal(action *out) {
    if (T.phase == OVER) return 0;
    int count = plays(out);
    if (count) return count;
    if (duty_pass && T.drawn < 0 && duty() >= 0) out[0].kind = 2; /* HOUSE RULE 3 */
    else if (T.nbone && (T.drawn < 0 || draws_deep())) out[0].kind = 1; /* TURN-2; HOUSE RULE 1 */
    else out[0].kind = 2;                                           /* TURN-4 */
    return 1;
}

static long long hand_value(int p) {
    int ids[SET_TILES], count = 0;
    for (int id = SET_TILES - 1; id >= 0; id--)
        if (T.hand[p][id]) ids[count++] = id;
    long long total = 0;
    for (int i = bug[2] ? 1 : 0; i < count; i++) /* BUG 2 starts at the second tile */
        total += tile_hi[ids[i]] + tile_lo[ids[i]]; /* SCORE-1: face value */
    return total;
}

static void finish(int winner) {
    for (int p = 0; p < T.n; p++) {
        T.round_scores[p] = p == winner ? 0 : hand_value(p); /* SCORE-5 */
        T.scores[p] += T.round_scores[p];                     /* MATCH-1 */
    }
    if (winner >= 0) T.outs[winner]++;
    T.winner = winner;
    T.over_end = winner < 0;
    T.phase = OVER;
    T.nturn = 0;
    T.drawn = -1;
}

static void end_turn(void) {
    T.nturn = 0;
    T.drawn = -1;
    T.first[T.seat] = 0;                /* FIRST-6 */
    T.seat = (T.seat + 1) % T.n;        /* SEAT-1 */
    T.phase = START;
    if (!T.nbone && T.passes >= knocks_to_block()) finish(-1); /* HOUSE RULE 2 */
}

static void remove_from(int *list, int *count, int t) {
    for (int i = 0; i < *count; i++)
        if (list[i] == t) {
            memmove(list + i, list + i + 1, (size_t)(*count - i - 1) * sizeof(int));
            (*count)--;
            return;
        }
}

static void perform(const action *a) {
    if (a->kind == 1) {
        int id = T.boneyard[0];
        memmove(T.boneyard, T.boneyard + 1, (size_t)(T.nbone - 1) * sizeof(int));
        T.nbone--;
        T.hand[T.seat][id] = 1;
        T.drawn = id; /* TURN-3: only this tile may be played now */
        return;
    }
    if (a->kind == 2) {
        T.marker[T.seat] = 1; /* TURN-4, MARK-1 */
        if (!T.nbone) T.passes++;
        end_turn();
        return;
    }
    int t = a->train, id = a->tile;
    int near = T.end[t], far = tile_hi[id] == near ? tile_lo[id] : tile_hi[id];
    T.hand[T.seat][id] = 0;
    T.near[t][T.length[t]] = near;
    T.far[t][T.length[t]++] = far;
    T.end[t] = far; /* TRAIN-2 */
    if (t < T.n && (t == T.seat || bug[3])) T.marker[t] = 0; /* MARK-3; BUG 3: anyone */
    if (in_list(T.open, T.nopen, t)) { /* TRAIN-3: one tile covers the double */
        remove_from(T.open, &T.nopen, t);
        remove_from(T.turn, &T.nturn, t);
    }
    int dbl = tile_hi[id] == tile_lo[id];
    if (dbl) {
        T.open[T.nopen++] = t;
        T.turn[T.nturn++] = t;
    }
    T.drawn = -1;
    T.passes = 0;
    int left = 0;
    for (int x = 0; x < SET_TILES; x++) left += T.hand[T.seat][x];
    if (!left) finish(T.seat); /* END-1: out, even on a double */
    else if (dbl) T.phase = FOLLOW; /* DBL-1: another tile is due */
    else end_turn();               /* TURN-6 */
}

/* Why an action not among the legal ones is refused: the clause it breaks. */
static const char *refusal(const action *a, const char **reason) {
    action found[SET_TILES * (MOST_SEATS + 1) + 1];
    if (T.phase == OVER) {
        *reason = "the round is over";
        return "END-1";
    }
    int nplays = plays(found);
    if (a->kind == 3) {
        *reason = "trolley plays one tile a turn: there is no chain to end";
        return "FIRST-7";
    }
    if (a->kind == 1 || a->kind == 2) {
        if (nplays) {
            *reason = "a tile can be played";
            return "TURN-1";
        }
        if (a->kind == 1 && duty_pass && T.drawn < 0 && duty() >= 0) {
            *reason = "a player who cannot cover the open double passes without drawing "
                      "(house rule)";
            return NULL;
        }
        if (a->kind == 1) {
            *reason = T.nbone ? "one draw a turn at a table of fewer than six"
                              : "the boneyard is empty";
            return T.nbone ? "TURN-2" : "TURN-4";
        }
        *reason = "a player who cannot play draws first";
        return draws_deep() ? "TURN-5" : "TURN-2";
    }
    if (tile_hi[a->tile] > HIGHEST) {
        *reason = "that tile is not in a double-15 set";
        return "SET-1";
    }
    if (a->train < 0) {
        *reason = "there is no such train at this table";
        return "TRAIN-1";
    }
    if (!T.hand[T.seat][a->tile]) {
        *reason = "that tile is not in the hand of the player to act";
        return "TURN-7";
    }
    if (!fits(a->tile, a->train)) {
        *reason = "the tile does not match the train's open end";
        return "TRAIN-2";
    }
    if (T.drawn >= 0 && a->tile != T.drawn) {
        *reason = "after a draw only the tile drawn may be played";
        return "TURN-3";
    }
    int due = duty();
    if (!may_use(a->train) && !in_list(T.open, T.nopen, a->train)) {
        *reason = "another player's train without a marker";
        return "TRAIN-4";
    }
    if (due >= 0 && a->train != due) {
        *reason = in_list(T.open, T.nopen, a->train) ? "the oldest open double comes first"
                                                     : "an open double must be covered first";
        return in_list(T.open, T.nopen, a->train) ? "DBL-7" : "DBL-6";
    }
    *reason = "not a legal play here";
    return NULL;
}

/* --- requests ------------------------------------------------------------------------ */

static int read_action(const jval *v, action *a) {
    if (!v || v->kind != J_OBJECT) return bad("the action is not an object");
    const jval *type = json_get(v, "type");
    if (!type || type->kind != J_STRING) return bad("the action has no type");
    static const char *const play_keys[] = {"type", "tile", "train", NULL};
    static const char *const bare_keys[] = {"type", NULL};
    if (strcmp(type->text, "play") == 0) {
        if (!only_keys(v, play_keys, "a play")) return 0;
        a->kind = 0;
        a->tile = tile_from(json_get(v, "tile"), NULL);
        if (a->tile < 0) return bad("a play's tile is not a tile 'a-b' with ends 0 to 18");
        const jval *t = json_get(v, "train");
        if (t->kind == J_STRING && strcmp(t->text, "mexican") == 0) a->train = T.n;
        else if (t->kind == J_NUMBER && t->whole && !t->too_big && t->integer >= 0)
            a->train = t->integer < T.n ? (int)t->integer : -1;
        else return bad("a play's train is not a seat number or \"mexican\"");
        return 1;
    }
    const char *names[] = {"draw", "pass", "end-chain"};
    for (int k = 0; k < 3; k++)
        if (strcmp(type->text, names[k]) == 0) {
            if (!only_keys(v, bare_keys, "the action")) return 0;
            a->kind = k + 1;
            return 1;
        }
    return bad("the action's type is not play, draw, pass or end-chain");
}

static int same(const action *x, const action *y) {
    return x->kind == y->kind && (x->kind || (x->tile == y->tile && x->train == y->train));
}

static void put_action(jbuf *b, const action *a) {
    static const char *const kinds[] = {"play", "draw", "pass", "end-chain"};
    buf_text(b, "{\"type\":\"");
    buf_text(b, kinds[a->kind]);
    buf_char(b, '"');
    if (!a->kind) {
        buf_text(b, ",\"tile\":");
        put_tile(b, tile_hi[a->tile], tile_lo[a->tile]);
        buf_text(b, ",\"train\":");
        put_train_ref(b, a->train);
    }
    buf_char(b, '}');
}

static int check_fields(const jval *req, const char *const *required,
                        const char *const *optional) {
    for (size_t i = 0; i < req->count; i++) {
        const char *k = req->keys[i];
        int known = strcmp(k, "id") == 0 || strcmp(k, "type") == 0;
        for (const char *const *r = required; *r; r++) known |= strcmp(*r, k) == 0;
        for (const char *const *o = optional; o && *o; o++) known |= strcmp(*o, k) == 0;
        if (!known) {
            char m[200];
            snprintf(m, sizeof m, "the request has an unknown field '%.100s'", k);
            return bad(m);
        }
    }
    for (const char *const *r = required; *r; r++)
        if (!json_get(req, *r)) {
            char m[200];
            snprintf(m, sizeof m, "the request lacks '%s'", *r);
            return bad(m);
        }
    const jval *rs = json_get(req, "ruleset");
    if (rs && rs->kind != J_OBJECT) return bad("the ruleset is not an object");
    return 1;
}

static void hello(jbuf *b, const jval *req) {
    const jval *p = json_get(req, "protocol");
    if (!is_int(p, 1, 1)) {
        buf_text(b, "\"ok\":false,\"error\":{\"kind\":\"protocol-version\",\"message\":"
                    "\"trolley speaks protocol 1\",\"supported\":[1]}");
        return;
    }
    buf_text(b, "\"ok\":true,\"protocol\":1,\"name\":\"trolley\",\"version\":\"1.0\","
                "\"rules\":{\"name\":\"trolley\",\"options\":{"
                "\"tile_set\":\"double-15\",\"hand_sizes\":\"custom\","
                "\"engine_procedure\":\"set-aside\",\"starting_seat\":\"rotate\","
                "\"first_turn\":\"single\",\"mexican_first_turn\":\"anyone\","
                "\"own_train_first\":\"not-required\",\"doubles\":\"open\","
                "\"follow_up\":\"anywhere\",\"double_order\":\"oldest-first\","
                "\"uncoverable_double\":\"stays-open\",\"marker_removal\":\"owner-plays-own\","
                "\"draw_rule\":\"other\",\"blocked_round\":\"other\",\"scoring\":\"penalty\","
                "\"blank_values\":\"face\",\"tie_rule\":\"shared\",\"match_length\":\"full\"},"
                "\"hand_sizes\":{");
    for (int n = 2; n <= MOST_PLAYERS; n++) {
        char row[32];
        snprintf(row, sizeof row, "%s\"%d\":%d", n > 2 ? "," : "", n, HAND_SIZE[n]);
        buf_text(b, row);
    }
    buf_text(b, "}}");
}

static int deal(const jval *req) {
    const jval *players = json_get(req, "players"), *round = json_get(req, "round");
    const jval *order = json_get(req, "order");
    if (!is_int(players, 1, MOST_SEATS)) return bad("players is not a whole number 1 to 20");
    if (!is_int(round, 1, 2147483647LL)) return bad("round is not a whole number from 1");
    int n = (int)players->integer;
    if (n < 2 || n > MOST_PLAYERS) {
        char m[160];
        snprintf(m, sizeof m, "trolley has no hand size for %d players (it deals to 2 to 10)",
                 n);
        return refused_setup(m, "DEAL-7");
    }
    if (round->integer > ROUNDS) return refused_setup("a double-15 match has 16 rounds",
                                                      "MATCH-1");
    memset(&T, 0, sizeof T);
    T.n = n;
    T.round = (int)round->integer;
    T.engine = HIGHEST - (T.round - 1); /* ENG-1 */
    int engine = tile_id(T.engine, T.engine);
    if (!order || order->kind != J_ARRAY || order->count != SET_TILES - 1)
        return bad("order is not the 135 tiles of double-15 without the engine (ENG-2)");
    static unsigned char seen[ALL_TILES];
    memset(seen, 0, sizeof seen);
    int pool[SET_TILES];
    for (size_t i = 0; i < order->count; i++) {
        int id = tile_from(order->items[i], NULL);
        if (id < 0 || id >= SET_TILES || id == engine || seen[id]++)
            return bad("order is not the 135 tiles of double-15 without the engine (ENG-2)");
        pool[i] = id;
    }
    int at = 0;
    for (int p = 0; p < n; p++)
        for (int k = 0; k < HAND_SIZE[n]; k++) T.hand[p][pool[at++]] = 1; /* DEAL-1 */
    for (; at < SET_TILES - 1; at++) T.boneyard[T.nbone++] = pool[at];
    T.phase = START;
    T.seat = T.starter = (T.round - 1) % n; /* SEAT-3 */
    for (int t = 0; t <= n; t++) T.end[t] = T.engine;
    for (int p = 0; p < n; p++) T.first[p] = 1;
    T.drawn = -1;
    T.winner = -1;
    return 1;
}

static void answer(jbuf *b, const jval *req) {
    const jval *type = json_get(req, "type");
    static const char *const none[] = {NULL};
    static const char *const with_state[] = {"ruleset", "state", NULL};
    static const char *const with_action[] = {"ruleset", "state", "action", NULL};
    static const char *const deal_fields[] = {"ruleset", "players", "round", "order", NULL};
    static const char *const deal_optional[] = {"draw", NULL};
    static const char *const winner_optional[] = {"winner", NULL};
    static const char *const hello_optional[] = {"protocol", "harness", NULL};
    jbuf out = {0};
    if (!type || type->kind != J_STRING) {
        bad("the request has no type");
    } else if (strcmp(type->text, "hello") == 0) {
        if (check_fields(req, none, hello_optional)) {
            hello(b, req);
            return;
        }
    } else if (strcmp(type->text, "shutdown") == 0) {
        buf_text(b, "\"ok\":true");
        return;
    } else if (strcmp(type->text, "deal") == 0) {
        if (check_fields(req, deal_fields, deal_optional) && deal(req)) {
            buf_text(&out, "\"ok\":true,\"state\":");
            put_state(&out);
        }
    } else if (strcmp(type->text, "legal") == 0) {
        if (check_fields(req, with_state, NULL) && read_state(json_get(req, "state"))) {
            static action found[SET_TILES * (MOST_SEATS + 1) + 1];
            int count = legal(found);
            buf_text(&out, "\"ok\":true,\"actions\":[");
            for (int i = 0; i < count; i++) {
                if (i) buf_char(&out, ',');
                put_action(&out, &found[i]);
            }
            buf_char(&out, ']');
        }
    } else if (strcmp(type->text, "apply") == 0) {
        action a;
        if (check_fields(req, with_action, NULL) && read_state(json_get(req, "state"))
            && read_action(json_get(req, "action"), &a)) {
            static action found[SET_TILES * (MOST_SEATS + 1) + 1];
            int count = legal(found), ok = 0;
            for (int i = 0; i < count; i++) ok |= same(&a, &found[i]);
            if (ok) {
                perform(&a);
                buf_text(&out, "\"ok\":true,\"state\":");
                put_state(&out);
            } else {
                const char *reason, *clause = refusal(&a, &reason);
                buf_text(&out, "\"ok\":true,\"refused\":{\"reason\":");
                buf_string(&out, reason);
                buf_text(&out, ",\"clause\":");
                if (clause) buf_string(&out, clause);
                else buf_text(&out, "null");
                buf_char(&out, '}');
            }
        }
    } else if (strcmp(type->text, "score") == 0) {
        if (check_fields(req, with_state, winner_optional) && read_state(json_get(req, "state"))) {
            const jval *w = json_get(req, "winner");
            int winner = -2;
            if (w && w->kind != J_NULL) {
                if (!is_int(w, 0, T.n - 1)) bad("winner is not a seat of the table");
                else winner = (int)w->integer;
            } else if (w) {
                winner = -1;
            } else if (T.phase != OVER) {
                bad("without a winner the state must be a finished round");
            } else {
                winner = T.winner;
            }
            if (winner >= 0) {
                for (int id = 0; id < SET_TILES; id++)
                    if (T.hand[winner][id]) bad("the winner's hand is not empty");
            }
            if (!problem_kind) {
                buf_text(&out, "\"ok\":true,\"scores\":[");
                for (int p = 0; p < T.n; p++) {
                    if (p) buf_char(&out, ',');
                    buf_int(&out, p == winner ? 0 : hand_value(p)); /* SCORE-1, SCORE-5 */
                }
                buf_char(&out, ']');
            }
        }
    } else if (strcmp(type->text, "winners") == 0) {
        if (check_fields(req, with_state, NULL) && read_state(json_get(req, "state"))) {
            buf_text(&out, "\"ok\":true,\"winners\":[");
            if (T.phase == OVER && T.round == ROUNDS) { /* MATCH-1: the [0-0] round ends it */
                long long low = T.scores[0];
                for (int p = 1; p < T.n; p++)
                    if (T.scores[p] < low) low = T.scores[p];
                int any = 0;
                for (int p = 0; p < T.n; p++)
                    if (T.scores[p] == low) { /* MATCH-2, MATCH-4: a tie is shared */
                        if (any++) buf_char(&out, ',');
                        buf_int(&out, p);
                    }
            }
            buf_char(&out, ']');
        }
    } else {
        bad("the request's type is not one of hello, deal, legal, apply, score, winners, "
            "shutdown");
    }
    if (problem_kind) {
        buf_text(b, "\"ok\":false,\"error\":{\"kind\":");
        buf_string(b, problem_kind);
        buf_text(b, ",\"message\":");
        buf_string(b, problem);
        if (strcmp(problem_kind, "refused-setup") == 0) {
            buf_text(b, ",\"clause\":");
            if (problem_clause) buf_string(b, problem_clause);
            else buf_text(b, "null");
        }
        buf_char(b, '}');
    } else if (out.data) {
        buf_text(b, out.data);
    }
    free(out.data);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--duty-pass") == 0) {
            duty_pass = 1;
        } else if (strcmp(argv[i], "--fixed") == 0) {
            bug[1] = bug[2] = bug[3] = 0;
        } else if (strncmp(argv[i], "--fixed=", 8) == 0 && argv[i][8] >= '1'
                   && argv[i][8] <= '3' && !argv[i][9]) {
            bug[argv[i][8] - '0'] = 0;
        } else {
            fprintf(stderr, "trolley: unknown argument %s (--fixed or --fixed=N, N 1 to 3)\n",
                    argv[i]);
            return 2;
        }
    }
    tiles_init();
    char *line = NULL;
    size_t room = 0;
    ssize_t got;
    jbuf b = {0};
    while ((got = getline(&line, &room, stdin)) != -1) {
        size_t n = (size_t)got;
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) n--;
        char *text = line;
        if (n >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB
            && (unsigned char)text[2] == 0xBF) {
            text += 3;
            n -= 3;
        }
        size_t k = 0;
        while (k < n && (text[k] == ' ' || text[k] == '\t')) k++;
        if (k == n) continue; /* a blank line */
        problem_kind = NULL;
        problem_clause = NULL;
        b.used = 0;
        if (b.data) b.data[0] = 0;
        char why[200];
        jval *req = json_parse(text, n, why, sizeof why);
        const jval *id = req ? json_get(req, "id") : NULL;
        int shutdown = 0;
        buf_text(&b, "{\"id\":");
        if (id && id->kind == J_NUMBER && id->whole && !id->too_big) buf_int(&b, id->integer);
        else buf_text(&b, "null");
        buf_char(&b, ',');
        if (!req) {
            char m[300];
            snprintf(m, sizeof m, "not JSON: %s", why);
            buf_text(&b, "\"ok\":false,\"error\":{\"kind\":\"bad-request\",\"message\":");
            buf_string(&b, m);
            buf_char(&b, '}');
        } else if (req->kind != J_OBJECT) {
            buf_text(&b, "\"ok\":false,\"error\":{\"kind\":\"bad-request\",\"message\":"
                         "\"a request is a JSON object\"}");
        } else if (!id || id->kind != J_NUMBER || !id->whole || id->too_big) {
            buf_text(&b, "\"ok\":false,\"error\":{\"kind\":\"bad-request\",\"message\":"
                         "\"the request has no integer id\"}");
        } else {
            const jval *type = json_get(req, "type");
            shutdown = type && type->kind == J_STRING && strcmp(type->text, "shutdown") == 0;
            answer(&b, req);
        }
        buf_text(&b, "}\n");
        fputs(b.data, stdout);
        fflush(stdout);
        json_reset();
        if (shutdown) break;
    }
    free(line);
    free(b.data);
    return 0;
}
