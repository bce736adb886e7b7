/* Bogie: Mexican Train on a double-12 set for two to eight, as a family plays it on the
 * veranda, written in C from docs/protocol.md, docs/implementers-guide.md and README.md
 * alone (it knows nothing of mtrain but the protocol), to try the suite as its author
 * would. Its house rules and planted bugs were written down here before the suite ran.
 *
 * Rules it plays (its rule-set file: tests/examples/c/bogie-rules.yaml; its hello
 * declares the same):
 * - a double-12 set (91 tiles); a full match of 13 rounds, [12-12] down to [0-0]; round r
 *   starts at seat (r - 1) mod n (`rotate`);
 * - HOUSE RULE, a table of its own: 2 players 15 tiles, 3 players 14, 4 players 13,
 *   5 players 12, 6 players 11, 7 players 10, 8 players 9; any other count is refused
 *   (DEAL-7);
 * - HOUSE RULE no value describes (`engine_procedure: other`, "turn it up"): every tile
 *   is dealt; whoever was dealt the round's engine puts it in the centre (their hand is
 *   one tile short); if it lies in the boneyard it is simply turned up from there and put
 *   in the centre: nobody draws for it;
 * - one tile a turn from the start (`single`); nobody must start their own train first
 *   (`not-required`), but nobody opens the Mexican Train before their own train holds a
 *   tile (`mexican_first_turn: own-train-started`, FIRST-10);
 * - a double asks its layer for another tile, anywhere they may play (`open`,
 *   `anywhere`); doubles left open are covered oldest first by the players after
 *   (`oldest-first`); once the boneyard is empty, a double of an earlier turn binds
 *   nobody (`released-when-boneyard-empty`, DBL-12);
 * - HOUSE RULE no value describes (`marker_removal: other`, "the Mexican is everyone's
 *   own"): a marker comes off when its owner plays on their own train or on the Mexican
 *   Train;
 * - a player who cannot play draws one tile and plays it or passes, marker up
 *   (`draw-one`);
 * - HOUSE RULE no value describes (`blocked_round: other`, "nobody waits on an empty
 *   boneyard"): a pass made with the boneyard empty ends the round, blocked;
 * - penalty scoring at face value (`penalty`, `face`); the lowest total wins, equal
 *   totals share (`shared`).
 *
 * Planted bugs (what the suite must find), each with the clause it breaks:
 * 1. "empty-release" (shows only near the boneyard's end; a C off-by-one): the release
 *    of earlier doubles tests the boneyard's last index (`by_len - 1 <= 0`), so with ONE
 *    tile still in the boneyard a double of an earlier turn already binds nobody: the
 *    player after it may play anywhere instead of covering it (DBL-12: released only
 *    once the boneyard is empty; until then DBL-6 binds).
 * 2. "mexican-two" (a C off-by-one in an array's count): the train arrays count the
 *    engine as a train's first element in the author's head, so the Mexican Train waits
 *    until the own train holds TWO tiles (`tlen[me] < 2`): a player whose own train holds
 *    one tile may not open the Mexican Train (FIRST-10: one tile is enough).
 *
 * Both bugs are on by default; `--fixed` switches them off. Its refusals name a clause
 * where one says why (a house rule has none).
 *
 *     gcc -O2 -o bogie tests/examples/c/bogie_engine.c tests/examples/c/bogie_json.c
 *     mtrain conform --impl "./bogie --fixed" --rules tests/examples/c/bogie-rules.yaml
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bogie_json.h"

#define TOP 12
#define ROUNDS (TOP + 1)
#define MAXS 20          /* a state has 1 to 20 seats (protocol.md) */
#define MAXN 18          /* tiles of any set up to double-18 */
#define MAXT ((MAXN + 1) * (MAXN + 2) / 2)
#define NSET ((TOP + 1) * (TOP + 2) / 2)

static const int SIZES[] = {15, 14, 13, 12, 11, 10, 9}; /* house rule: 2 to 8 players */
static int bugs = 1;

/* ---- tiles: an index for a pair, high end first ----------------------------------------- */

static int HI[MAXT], LO[MAXT];

static int tix(int a, int b) { int h = a > b ? a : b, l = a > b ? b : a; return h * (h + 1) / 2 + l; }

static int parse_tile(const char *s, int *a, int *b) {
    char *e;
    if (!s || *s < '0' || *s > '9') return 0;
    long x = strtol(s, &e, 10);
    if (*e != '-' || e[1] < '0' || e[1] > '9') return 0;
    long y = strtol(e + 1, &e, 10);
    if (*e || x > MAXN || y > MAXN) return 0;
    *a = (int)x;
    *b = (int)y;
    return 1;
}

/* ---- the state -------------------------------------------------------------------------- */

enum { START, FOLLOW, OVER };
static const char *PHASES[] = {"start", "follow", "over"};

typedef struct {
    int round, engine, engine_placed, phase, seat, starter, n;
    unsigned char hand[MAXS][MAXT];
    int by[MAXT], by_len;
    int near[MAXS + 1][MAXT], far[MAXS + 1][MAXT], tlen[MAXS + 1], end[MAXS + 1];
    int marker[MAXS];
    int open[MAXS + 1], nopen, turn[MAXS + 1], nturn; /* train indexes: the Mexican is n */
    int drawn;                                         /* -1: none */
    int first[MAXS];
    long long passes, scores[MAXS], outs[MAXS];
    int over_result, winner;
    char res_end[16];
    long long res_scores[MAXS];
} St;

typedef struct { const char *kind, *msg, *clause; } Err;
static Err err;
static char errmsg[256];

static int fail(const char *kind, const char *clause, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(errmsg, sizeof errmsg, fmt, ap);
    va_end(ap);
    err.kind = kind;
    err.msg = errmsg;
    err.clause = clause;
    return 0;
}

static int jint(const jv *x, long long *out) {
    if (!x || x->t != J_NUM || !x->isint) return 0;
    *out = x->i;
    return 1;
}

static int train_ref(const St *s, const jv *x, int *t) {
    if (x && x->t == J_STR && !strcmp(x->s, "mexican")) { *t = s->n; return 1; }
    long long v;
    if (!jint(x, &v) || v < 0 || v >= s->n) return 0;
    *t = (int)v;
    return 1;
}

static int read_tiles(const jv *arr, int *out, int *len) {
    if (!arr || arr->t != J_ARR || arr->n > MAXT) return 0;
    *len = 0;
    for (size_t i = 0; i < arr->n; i++) {
        int a, b;
        if (arr->v[i]->t != J_STR || !parse_tile(arr->v[i]->s, &a, &b)) return 0;
        out[(*len)++] = tix(a, b);
    }
    return 1;
}

static int read_state(const jv *x, St *s) {
    memset(s, 0, sizeof *s);
    long long v;
    const jv *hands = jget(x, "hands");
    if (!x || x->t != J_OBJ || !hands || hands->t != J_ARR || hands->n < 1 || hands->n > MAXS)
        return fail("bad-request", NULL, "a state needs 1 to 20 hands");
    s->n = (int)hands->n;
    if (s->n < 2 || s->n > 8)
        return fail("refused-setup", "DEAL-7", "bogie is for 2 to 8 players, not %d", s->n);
    const jv *ph = jget(x, "phase");
    if (!ph || ph->t != J_STR) return fail("bad-request", NULL, "a state needs its phase");
    s->phase = -1;
    for (int i = 0; i < 3; i++)
        if (!strcmp(ph->s, PHASES[i])) s->phase = i;
    if (s->phase < 0) return fail("unsupported", NULL, "no '%s' phase in this game", ph->s);
    if (!jint(jget(x, "round"), &v)) return fail("bad-request", NULL, "round");
    s->round = (int)v;
    if (!jint(jget(x, "engine"), &v)) return fail("bad-request", NULL, "engine");
    s->engine = (int)v;
    s->engine_placed = 1;
    if (!jint(jget(x, "seat"), &v) || v < 0 || v >= s->n) return fail("bad-request", NULL, "seat");
    s->seat = (int)v;
    if (!jint(jget(x, "starter"), &v) || v < 0 || v >= s->n) return fail("bad-request", NULL, "starter");
    s->starter = (int)v;
    for (int p = 0; p < s->n; p++) {
        int tiles[MAXT], len;
        if (!read_tiles(hands->v[p], tiles, &len)) return fail("bad-request", NULL, "hand %d", p);
        for (int i = 0; i < len; i++) s->hand[p][tiles[i]] = 1;
    }
    if (!read_tiles(jget(x, "boneyard"), s->by, &s->by_len)) return fail("bad-request", NULL, "boneyard");
    const jv *trains = jget(x, "trains"), *mex = jget(x, "mexican");
    if (!trains || trains->t != J_ARR || (int)trains->n != s->n || !mex || mex->t != J_OBJ)
        return fail("bad-request", NULL, "trains");
    for (int t = 0; t <= s->n; t++) {
        const jv *tr = t < s->n ? trains->v[t] : mex;
        const jv *tiles = jget(tr, "tiles");
        if (!tiles || tiles->t != J_ARR || !jint(jget(tr, "end"), &v)) return fail("bad-request", NULL, "train %d", t);
        s->end[t] = (int)v;
        for (size_t i = 0; i < tiles->n; i++) {
            int a, b;
            if (tiles->v[i]->t != J_STR || !parse_tile(tiles->v[i]->s, &a, &b))
                return fail("bad-request", NULL, "a tile of train %d", t);
            s->near[t][s->tlen[t]] = a;
            s->far[t][s->tlen[t]++] = b;
        }
        if (t < s->n) {
            const jv *m = jget(tr, "marker");
            if (!m || m->t != J_BOOL) return fail("bad-request", NULL, "marker %d", t);
            s->marker[t] = m->b;
        }
    }
    const char *lists[] = {"open_doubles", "turn_doubles"};
    for (int l = 0; l < 2; l++) {
        const jv *arr = jget(x, lists[l]);
        if (!arr || arr->t != J_ARR || arr->n > (size_t)s->n + 1) return fail("bad-request", NULL, "%s", lists[l]);
        for (size_t i = 0; i < arr->n; i++) {
            int t;
            if (!train_ref(s, arr->v[i], &t)) return fail("bad-request", NULL, "%s", lists[l]);
            if (l == 0) s->open[s->nopen++] = t;
            else s->turn[s->nturn++] = t;
        }
    }
    const jv *dr = jget(x, "drawn");
    s->drawn = -1;
    if (dr && dr->t == J_STR) {
        int a, b;
        if (!parse_tile(dr->s, &a, &b)) return fail("bad-request", NULL, "drawn");
        s->drawn = tix(a, b);
    } else if (!dr || dr->t != J_NULL) return fail("bad-request", NULL, "drawn");
    const jv *ft = jget(x, "first_turns");
    if (!ft || ft->t != J_ARR) return fail("bad-request", NULL, "first_turns");
    for (size_t i = 0; i < ft->n; i++) {
        if (!jint(ft->v[i], &v) || v < 0 || v >= s->n) return fail("bad-request", NULL, "first_turns");
        s->first[v] = 1;
    }
    if (!jint(jget(x, "passes"), &s->passes)) return fail("bad-request", NULL, "passes");
    const jv *sc = jget(x, "scores"), *outs = jget(x, "outs");
    if (!sc || sc->t != J_ARR || (int)sc->n != s->n || !outs || outs->t != J_ARR || (int)outs->n != s->n)
        return fail("bad-request", NULL, "scores and outs");
    for (int p = 0; p < s->n; p++)
        if (!jint(sc->v[p], &s->scores[p]) || !jint(outs->v[p], &s->outs[p]))
            return fail("bad-request", NULL, "scores and outs");
    const jv *res = jget(x, "result");
    s->winner = -1;
    if (res && res->t == J_OBJ) {
        const jv *w = jget(res, "winner"), *e = jget(res, "end"), *rs = jget(res, "scores");
        s->over_result = 1;
        if (w && w->t == J_NUM) s->winner = (int)w->i;
        snprintf(s->res_end, sizeof s->res_end, "%s", e && e->t == J_STR ? e->s : "blocked");
        for (int p = 0; rs && rs->t == J_ARR && p < s->n && (size_t)p < rs->n; p++) s->res_scores[p] = rs->v[p]->i;
    }
    return 1;
}

static void write_tile(buf *b, int a, int c) { bput(b, "\"%d-%d\"", a, c); }

static void write_ref(buf *b, const St *s, int t) {
    if (t == s->n) bput(b, "\"mexican\"");
    else bput(b, "%d", t);
}

static void write_state(buf *b, const St *s) {
    bput(b, "{\"round\":%d,\"engine\":%d,\"engine_placed\":true,\"phase\":\"%s\",\"seat\":%d,"
            "\"starter\":%d,\"hands\":[", s->round, s->engine, PHASES[s->phase], s->seat, s->starter);
    for (int p = 0; p < s->n; p++) {
        bput(b, p ? ",[" : "[");
        int c = 0;
        for (int i = MAXT - 1; i >= 0; i--)
            if (s->hand[p][i]) { if (c++) bput(b, ","); write_tile(b, HI[i], LO[i]); }
        bput(b, "]");
    }
    bput(b, "],\"boneyard\":[");
    for (int i = 0; i < s->by_len; i++) { if (i) bput(b, ","); write_tile(b, HI[s->by[i]], LO[s->by[i]]); }
    bput(b, "],\"trains\":[");
    for (int t = 0; t <= s->n; t++) {
        if (t == s->n) bput(b, "],\"mexican\":");
        else if (t) bput(b, ",");
        bput(b, "{\"tiles\":[");
        for (int i = 0; i < s->tlen[t]; i++) { if (i) bput(b, ","); write_tile(b, s->near[t][i], s->far[t][i]); }
        bput(b, "],\"end\":%d", s->end[t]);
        if (t < s->n) bput(b, ",\"marker\":%s", s->marker[t] ? "true" : "false");
        bput(b, "}");
    }
    bput(b, ",\"open_doubles\":[");
    for (int i = 0; i < s->nopen; i++) { if (i) bput(b, ","); write_ref(b, s, s->open[i]); }
    bput(b, "],\"turn_doubles\":[");
    for (int i = 0; i < s->nturn; i++) { if (i) bput(b, ","); write_ref(b, s, s->turn[i]); }
    bput(b, "],\"drawn\":");
    if (s->drawn >= 0) write_tile(b, HI[s->drawn], LO[s->drawn]);
    else bput(b, "null");
    bput(b, ",\"first_turns\":[");
    for (int p = 0, c = 0; p < s->n; p++)
        if (s->first[p]) bput(b, c++ ? ",%d" : "%d", p);
    bput(b, "],\"passes\":%lld,\"scores\":[", s->passes);
    for (int p = 0; p < s->n; p++) bput(b, p ? ",%lld" : "%lld", s->scores[p]);
    bput(b, "],\"outs\":[");
    for (int p = 0; p < s->n; p++) bput(b, p ? ",%lld" : "%lld", s->outs[p]);
    bput(b, "],\"result\":");
    if (s->phase != OVER) { bput(b, "null}"); return; }
    bput(b, "{\"end\":\"%s\",\"winner\":", s->res_end);
    if (s->winner >= 0) bput(b, "%d", s->winner);
    else bput(b, "null");
    bput(b, ",\"scores\":[");
    for (int p = 0; p < s->n; p++) bput(b, p ? ",%lld" : "%lld", s->res_scores[p]);
    bput(b, "]}}");
}

/* ---- where a player may play -------------------------------------------------------------- */

static int in(const int *list, int n, int x) {
    for (int i = 0; i < n; i++)
        if (list[i] == x) return 1;
    return 0;
}

/* The open double the mover must cover: the oldest laid before this turn (DBL-6, DBL-7),
 * none once the boneyard is empty (DBL-12); -1 when none binds. */
static int duty(const St *s) {
    for (int i = 0; i < s->nopen; i++)
        if (!in(s->turn, s->nturn, s->open[i])) {
            if (bugs ? s->by_len - 1 <= 0 : s->by_len == 0) /* (planted bug 1: one tile left) */
                return -1; /* DBL-12: once the boneyard is empty no earlier double binds */
            return s->open[i]; /* DBL-7: oldest first */
        }
    return -1;
}

/* The trains the mover may use in an ordinary turn (TRAIN-4, TRAIN-5, FIRST-10). */
static int open_trains(const St *s, int *out) {
    int me = s->seat, k = 0;
    out[k++] = me;
    int need = bugs ? 2 : 1; /* (planted bug 2: two tiles) */
    if (s->tlen[s->n] > 0 || s->tlen[me] >= need) out[k++] = s->n; /* FIRST-10 */
    for (int t = 0; t < s->n; t++)
        if (t != me && s->marker[t]) out[k++] = t; /* TRAIN-4: a marked train */
    return k;
}

static int playable(const St *s, int *out) {
    if (s->nopen) {
        int d = duty(s);
        if (d >= 0) { out[0] = d; return 1; } /* DBL-6: cover it, nothing else */
    }
    int k = open_trains(s, out);
    if (s->phase == FOLLOW) /* DBL-2: anywhere; TRAIN-6: a double of this turn where it lies */
        for (int i = 0; i < s->nturn; i++)
            if (!in(out, k, s->turn[i])) out[k++] = s->turn[i];
    return k;
}

typedef struct { int tile, train; } Play;

static int matches(int tile, int e) { return HI[tile] == e || LO[tile] == e; }

static int plays(const St *s, Play *out) {
    int trains[MAXS + 2], k = 0;
    if (s->drawn >= 0 && s->phase == START) {
        int any = 0;
        for (int t = 0; t <= s->n; t++) any |= matches(s->drawn, s->end[t]);
        if (!any) return 0; /* TRAIN-2: a drawn tile that matches nothing goes nowhere */
    }
    int nt = playable(s, trains);
    for (int i = 0; i < nt; i++)
        for (int tile = 0; tile < MAXT; tile++) {
            if (!s->hand[s->seat][tile] || (s->drawn >= 0 && tile != s->drawn)) continue; /* TURN-3 */
            if (matches(tile, s->end[trains[i]])) out[k].tile = tile, out[k++].train = trains[i];
        }
    return k;
}

enum { A_PLAY, A_DRAW, A_PASS, A_END };

/* TURN-1: must play; TURN-4: pass on an empty boneyard or after a draw; TURN-2: draw. */
static int legal_kind(const St *s, int nplays) {
    if (nplays) return A_PLAY;
    if (s->by_len == 0 || s->drawn >= 0) return A_PASS;
    return A_DRAW;
}

/* ---- what an action does ------------------------------------------------------------------ */

static int pips(const St *s, int p) {
    int total = 0;
    for (int i = 0; i < MAXT; i++)
        if (s->hand[p][i]) total += HI[i] + LO[i]; /* SCORE-1: face value */
    return total;
}

static void finish(St *s, int winner) {
    for (int p = 0; p < s->n; p++) {
        s->res_scores[p] = p == winner ? 0 : pips(s, p); /* SCORE-5 */
        s->scores[p] += s->res_scores[p];
    }
    if (winner >= 0) s->outs[winner]++;
    snprintf(s->res_end, sizeof s->res_end, "%s", winner >= 0 ? "domino" : "blocked");
    s->winner = winner;
    s->phase = OVER;
    s->nturn = 0;
    s->drawn = -1;
}

static void end_turn(St *s) {
    s->nturn = 0;
    s->drawn = -1;
    s->first[s->seat] = 0;           /* FIRST-6 */
    s->seat = (s->seat + 1) % s->n;  /* SEAT-1 */
    s->phase = START;
}

static void remove_at(int *list, int *n, int x) {
    for (int i = 0; i < *n; i++)
        if (list[i] == x) { memmove(list + i, list + i + 1, (size_t)(*n - i - 1) * sizeof *list); (*n)--; return; }
}

static void lay(St *s, int tile, int t) {
    int me = s->seat;
    s->hand[me][tile] = 0;
    int near = s->end[t], far = HI[tile] == near ? LO[tile] : HI[tile];
    s->near[t][s->tlen[t]] = near;
    s->far[t][s->tlen[t]++] = far;
    s->end[t] = far; /* TRAIN-2 */
    if (t == me || t == s->n) s->marker[me] = 0; /* house rule: own train or the Mexican */
    remove_at(s->open, &s->nopen, t); /* TRAIN-3: one tile covers the double */
    remove_at(s->turn, &s->nturn, t);
    int dbl = HI[tile] == LO[tile];
    if (dbl) s->open[s->nopen++] = t, s->turn[s->nturn++] = t;
    s->drawn = -1;
    s->passes = 0;
    int left = 0;
    for (int i = 0; i < MAXT; i++) left += s->hand[me][i];
    if (!left) finish(s, me);       /* END-1: out, even on a double */
    else if (dbl) s->phase = FOLLOW; /* DBL-1 */
    else end_turn(s);                /* TURN-6 */
}

static void draw_tile(St *s) {
    int tile = s->by[0]; /* TURN-2: from the front */
    memmove(s->by, s->by + 1, (size_t)(s->by_len - 1) * sizeof *s->by);
    s->by_len--;
    s->hand[s->seat][tile] = 1;
    s->drawn = tile; /* TURN-3 */
}

static void pass_turn(St *s) {
    s->marker[s->seat] = 1; /* TURN-4, MARK-1 */
    int empty = s->by_len == 0;
    if (empty) s->passes++;
    end_turn(s);
    if (empty) finish(s, -1); /* house rule: a pass on an empty boneyard ends the round */
}

/* Why an action the rules refuse is refused: the clause, or NULL for a house rule. */
static const char *refusal(const St *s, int kind, int tile, int t, int nplays, char *why) {
    if (kind == A_DRAW || kind == A_PASS) {
        if (nplays) return strcpy(why, "a tile can be played"), "TURN-1";
        if (kind == A_DRAW) {
            if (s->by_len == 0) return strcpy(why, "the boneyard is empty"), "TURN-4";
            return strcpy(why, "one draw a turn"), "TURN-2";
        }
        return strcpy(why, "draw first: the boneyard holds tiles"), "TURN-2";
    }
    if (kind == A_END) return strcpy(why, "one tile a turn: there is no chain to end"), "FIRST-7";
    if (tile < 0 || !s->hand[s->seat][tile])
        return sprintf(why, "seat %d does not hold that tile", s->seat), "TURN-7";
    if (HI[tile] > TOP) return sprintf(why, "%d-%d is no tile of the double-12 set", HI[tile], LO[tile]), "SET-1";
    if (t < 0) return strcpy(why, "no such train at this table"), "TRAIN-1";
    if (!matches(tile, s->end[t]))
        return sprintf(why, "%d-%d does not match the open end %d", HI[tile], LO[tile], s->end[t]), "TRAIN-2";
    if (s->drawn >= 0 && tile != s->drawn) return strcpy(why, "only the drawn tile may be played"), "TURN-3";
    /* TRAIN-6: an open double is open wherever it lies, till DBL-12 releases it */
    int binds = in(s->open, s->nopen, t) && (s->by_len > 0 || in(s->turn, s->nturn, t));
    if (t < s->n && t != s->seat && !s->marker[t] && !binds)
        return sprintf(why, "seat %d's train carries no marker", t), "TRAIN-4";
    int d = duty(s);
    if (t == s->n && s->tlen[s->n] == 0 && s->tlen[s->seat] == 0)
        return strcpy(why, "the Mexican Train waits until one's own train holds a tile"), "FIRST-10";
    if (d >= 0 && t != d) {
        sprintf(why, "the older open double must be covered first");
        return in(s->open, s->nopen, t) ? "DBL-7" : "DBL-6";
    }
    return strcpy(why, "that train is not open now"), NULL;
}

/* ---- requests ----------------------------------------------------------------------------- */

static void write_actions(buf *b, const St *s) {
    bput(b, "[");
    if (s->phase != OVER) {
        Play ps[MAXT * 4];
        int np = plays(s, ps);
        int kind = legal_kind(s, np);
        if (kind == A_PLAY)
            for (int i = 0; i < np; i++) {
                bput(b, "%s{\"type\":\"play\",\"tile\":\"%d-%d\",\"train\":", i ? "," : "", HI[ps[i].tile], LO[ps[i].tile]);
                write_ref(b, s, ps[i].train);
                bput(b, "}");
            }
        else bput(b, "{\"type\":\"%s\"}", kind == A_DRAW ? "draw" : "pass");
    }
    bput(b, "]");
}

static int do_apply(buf *b, St *s, const jv *act) {
    const jv *type = jget(act, "type");
    if (!type || type->t != J_STR) return fail("bad-request", NULL, "an action needs its type");
    int kind = !strcmp(type->s, "play") ? A_PLAY : !strcmp(type->s, "draw") ? A_DRAW
             : !strcmp(type->s, "pass") ? A_PASS : !strcmp(type->s, "end-chain") ? A_END : -1;
    if (kind < 0) return fail("bad-request", NULL, "no action '%s'", type->s);
    int tile = -1, t = -1;
    if (kind == A_PLAY) {
        const jv *tl = jget(act, "tile");
        int a, c;
        if (!tl || tl->t != J_STR || !parse_tile(tl->s, &a, &c)) return fail("bad-request", NULL, "not a tile");
        tile = tix(a, c);
        const jv *tr = jget(act, "train");
        if (!tr) return fail("bad-request", NULL, "a play needs its train");
        if (!train_ref(s, tr, &t)) t = -1;
    }
    char why[200];
    const char *clause;
    if (s->phase == OVER) {
        strcpy(why, "the round is over");
        clause = "END-1";
    } else {
        Play ps[MAXT * 4];
        int np = plays(s, ps), legal = legal_kind(s, np);
        if (kind == A_PLAY && legal == A_PLAY)
            for (int i = 0; i < np; i++)
                if (ps[i].tile == tile && ps[i].train == t) {
                    lay(s, tile, t);
                    goto done;
                }
        if (kind == legal && kind == A_DRAW) { draw_tile(s); goto done; }
        if (kind == legal && kind == A_PASS) { pass_turn(s); goto done; }
        clause = refusal(s, kind, tile, t, np, why);
    }
    bput(b, "\"refused\":{\"reason\":");
    bstr(b, why);
    if (clause) bput(b, ",\"clause\":\"%s\"}", clause);
    else bput(b, ",\"clause\":null}");
    return 1;
done:
    bput(b, "\"state\":");
    write_state(b, s);
    return 1;
}

static int do_deal(buf *b, const jv *req) {
    long long players, rnd;
    const jv *order = jget(req, "order");
    if (!jint(jget(req, "players"), &players) || !jint(jget(req, "round"), &rnd) || !order || order->t != J_ARR)
        return fail("bad-request", NULL, "deal needs players, round and order");
    if (players < 2 || players > 8)
        return fail("refused-setup", "DEAL-7", "bogie is for 2 to 8 players, not %lld", players);
    if (rnd < 1 || rnd > ROUNDS) return fail("bad-request", NULL, "a double-12 match has rounds 1 to 13");
    static St st;
    St *s = &st;
    memset(s, 0, sizeof *s);
    int pool[MAXT], len, seen[MAXT] = {0};
    if (!read_tiles(order, pool, &len)) return fail("bad-request", NULL, "order");
    int engine = ROUNDS - (int)rnd, centre = tix(engine, engine);
    for (int i = 0; i < len; i++) {
        if (HI[pool[i]] > TOP || seen[pool[i]]++) return fail("bad-request", NULL, "order is not the double-12 set");
    }
    if (len != NSET && !(len == NSET - 1 && !seen[centre]))
        return fail("bad-request", NULL, "order is not the double-12 set");
    int size = SIZES[players - 2];
    s->n = (int)players;
    s->round = (int)rnd;
    s->engine = engine;
    s->phase = START;
    s->drawn = -1;
    s->seat = s->starter = (int)((rnd - 1) % players); /* SEAT-3 */
    int k = 0;
    for (int p = 0; p < s->n; p++)
        for (int i = 0; i < size; i++) s->hand[p][pool[k++]] = 1; /* DEAL-1 */
    for (int p = 0; p < s->n; p++) s->hand[p][centre] = 0; /* house rule: its holder lays it */
    for (; k < len; k++)
        if (pool[k] != centre) s->by[s->by_len++] = pool[k]; /* house rule: or it is turned up */
    for (int t = 0; t <= s->n; t++) s->end[t] = engine;
    for (int p = 0; p < s->n; p++) s->first[p] = 1;
    bput(b, "\"state\":");
    write_state(b, s);
    return 1;
}

static const char *OPTIONS =
    "{\"tile_set\":\"double-12\",\"hand_sizes\":\"custom\",\"engine_procedure\":\"other\","
    "\"starting_seat\":\"rotate\",\"first_turn\":\"single\",\"mexican_first_turn\":\"own-train-started\","
    "\"own_train_first\":\"not-required\",\"doubles\":\"open\",\"follow_up\":\"anywhere\","
    "\"double_order\":\"oldest-first\",\"uncoverable_double\":\"released-when-boneyard-empty\","
    "\"marker_removal\":\"other\",\"draw_rule\":\"draw-one\",\"blocked_round\":\"other\","
    "\"scoring\":\"penalty\",\"blank_values\":\"face\",\"tie_rule\":\"shared\",\"match_length\":\"full\"}";

static int answer(buf *b, const jv *req, const char *type) {
    if (!strcmp(type, "hello")) {
        long long v;
        if (!jint(jget(req, "protocol"), &v) || v != 1) return fail("protocol-version", NULL, "bogie speaks protocol 1");
        bput(b, "\"protocol\":1,\"name\":\"bogie\",\"version\":\"1.0\",\"rules\":{\"name\":\"bogie\",\"options\":%s,"
                "\"hand_sizes\":{", OPTIONS);
        for (int p = 2; p <= 8; p++) bput(b, "%s\"%d\":%d", p > 2 ? "," : "", p, SIZES[p - 2]);
        bput(b, "}}");
        return 1;
    }
    if (!strcmp(type, "shutdown")) return 1;
    if (!strcmp(type, "deal")) return do_deal(b, req);
    int kind = !strcmp(type, "legal") ? 0 : !strcmp(type, "apply") ? 1 : !strcmp(type, "score") ? 2
             : !strcmp(type, "winners") ? 3 : -1;
    if (kind < 0) return fail("bad-request", NULL, "unknown request type '%s'", type);
    static St st;
    if (!read_state(jget(req, "state"), &st)) return 0;
    St *s = &st;
    if (kind == 0) { bput(b, "\"actions\":"); write_actions(b, s); return 1; }
    if (kind == 1) {
        const jv *act = jget(req, "action");
        if (!act || act->t != J_OBJ) return fail("bad-request", NULL, "apply needs an action");
        return do_apply(b, s, act);
    }
    if (kind == 2) {
        int winner = s->winner;
        const jv *w = jget(req, "winner");
        if (w) {
            long long v;
            if (w->t == J_NULL) winner = -1;
            else if (!jint(w, &v) || v < 0 || v >= s->n) return fail("bad-request", NULL, "winner");
            else winner = (int)v;
        } else if (s->phase != OVER) return fail("bad-request", NULL, "score needs a winner or a finished round");
        if (winner >= 0 && pips(s, winner) + 0 > 0) {
            for (int i = 0; i < MAXT; i++)
                if (s->hand[winner][i]) return fail("bad-request", NULL, "the winner's hand is not empty");
        }
        bput(b, "\"scores\":[");
        for (int p = 0; p < s->n; p++) bput(b, p ? ",%d" : "%d", p == winner ? 0 : pips(s, p)); /* SCORE-5 */
        bput(b, "]");
        return 1;
    }
    bput(b, "\"winners\":[");
    if (s->phase == OVER && s->round >= ROUNDS) { /* MATCH-1: the last round is over */
        long long low = s->scores[0];
        for (int p = 1; p < s->n; p++) if (s->scores[p] < low) low = s->scores[p];
        for (int p = 0, c = 0; p < s->n; p++) /* MATCH-2, MATCH-4: shared */
            if (s->scores[p] == low) bput(b, c++ ? ",%d" : "%d", p);
    }
    bput(b, "]");
    return 1;
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--fixed")) bugs = 0;
    for (int h = 0; h <= MAXN; h++)
        for (int l = 0; l <= h; l++) HI[tix(h, l)] = h, LO[tix(h, l)] = l;
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    buf b = {malloc(1 << 16), 0, 1 << 16};
    while ((got = getline(&line, &cap, stdin)) > 0) {
        const char *text = line, *jerr = NULL;
        if (got >= 3 && (unsigned char)line[0] == 0xEF && (unsigned char)line[1] == 0xBB && (unsigned char)line[2] == 0xBF)
            text += 3;
        if (!text[strspn(text, " \t\r\n")]) continue; /* a blank line */
        jv *req = json_parse(text, &jerr);
        b.n = 0;
        const jv *idv = jget(req, "id");
        const jv *tv = jget(req, "type");
        int shutdown = 0;
        if (idv && idv->t == J_NUM) bput(&b, "{\"id\":%lld,", idv->i);
        else bput(&b, "{\"id\":null,");
        if (!req || req->t != J_OBJ || !tv || tv->t != J_STR) {
            bput(&b, "\"ok\":false,\"error\":{\"kind\":\"bad-request\",\"message\":");
            bstr(&b, jerr ? jerr : "a request needs its type");
            bput(&b, "}}");
        } else {
            size_t mark = b.n;
            bput(&b, "\"ok\":true,");
            size_t body = b.n;
            shutdown = !strcmp(tv->s, "shutdown");
            if (answer(&b, req, tv->s)) {
                if (b.n == body) b.n--; /* no fields but ok: drop the comma */
                bput(&b, "}");
            } else {
                b.n = mark;
                bput(&b, "\"ok\":false,\"error\":{\"kind\":\"%s\",\"message\":", err.kind);
                bstr(&b, err.msg);
                if (!strcmp(err.kind, "refused-setup")) {
                    if (err.clause) bput(&b, ",\"clause\":\"%s\"", err.clause);
                    else bput(&b, ",\"clause\":null");
                }
                if (!strcmp(err.kind, "protocol-version")) bput(&b, ",\"supported\":[1]");
                bput(&b, "}}");
            }
        }
        jfree(req);
        fwrite(b.p, 1, b.n, stdout);
        fputc('\n', stdout);
        fflush(stdout);
        if (shutdown) break;
    }
    free(line);
    free(b.p);
    return 0;
}
