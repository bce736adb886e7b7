/* tipper: the pub's double-16 Mexican Train, in C, written from docs/protocol.md alone.
 *
 * The Tipper's Arms keeps a double-16 box (153 tiles) behind the bar; three to eight
 * players, and closing time comes long before seventeen rounds would. Built with
 * `gcc -O2 -std=gnu11 -o tipper tipper_engine.c`; run `./tipper` (the planted bugs on)
 * or `./tipper --fixed` (off); it speaks protocol v1 on stdin and stdout. C standard
 * library only; nothing is kept between requests.
 *
 * THE RULES IT PLAYS (its truth, written before any run; its hello and
 * tipper-rules.yaml say the same):
 * - a double-16 set, numbers 0 to 16.
 * - the pub's own hand sizes: 3 players 18, 4 players 16, 5 players 15, 6 players 13,
 *   7 players 12, 8 players 11. Other counts are refused (DEAL-7).
 * - the round's engine is taken out before the deal (the pool sent holds the whole set:
 *   the engine is lifted out of it wherever it lies) and hands are dealt from the rest,
 *   seat 0 first; the rest is the boneyard in the pool's order.
 * - round r starts at seat (r - 1) mod n (SEAT-3); one tile a turn from the start;
 *   anyone may open the Mexican Train; nobody must start their own train first.
 * - doubles are ordinary tiles: a double ends the turn like any tile and nobody has to
 *   cover it (DBL-11).
 * - a player who cannot play draws one tile and may play only it; if it cannot be
 *   played, or the boneyard is empty, they pass and their marker goes up (TURN-2,
 *   TURN-3, TURN-4). A marker comes off when its owner plays on their own train (MARK-3).
 * - with the boneyard empty, a full round of passes (one per player) ends the round,
 *   blocked (END-3).
 * - penalty scoring at face value (a blank is 0); lowest total wins; equal totals share.
 * - HOUSE RULE 1 (`engine_procedure: other`), "even stops": the pub skips the odd
 *   doubles. Round r's engine is [k-k] with k = 16 - 2(r - 1): [16-16], [14-14], ...,
 *   [2-2], [0-0]; it is set aside as above.
 * - HOUSE RULE 2 (`match_length: other`), "last orders": the match ends after the
 *   [0-0] round, the ninth, so it is nine rounds (their totals decide); a deal of round
 *   10 or later is refused (refused-setup, no clause), and a table of round 10 or later
 *   is one these rules never reach (`unsupported`).
 *   The two work together: the even ladder is what makes the match nine rounds, and a
 *   round's number names its engine only through it.
 * - HOUSE RULE 3, a variation played with --final-say (tipper-final-rules.yaml;
 *   `tie_rule: other`), "the last word": of players level on the lowest total after the
 *   ninth round, the one who scored least in that round wins alone; level there too,
 *   they share the win. It leans on house rule 2: the round that breaks the tie is the
 *   [0-0] round, the last of the nine.
 * - tables these rules never reach but can still read are played as given (a state's
 *   own engine number is used for its trains), so a legal or apply request about round
 *   2 on [15-15] is answered as the table says.
 *
 * THREE PLANTED BUGS (on unless --fixed; each a slip a real author makes):
 * 1. "whose marker" (TRAIN-4): another player's train is taken as open when the *mover's*
 *    own marker is up, not its owner's: the test reads marker[seat] for marker[train].
 * 2. "marker on the draw" (MARK-1 / TURN-4): the marker goes up as soon as a player
 *    draws, not when they pass; a drawn tile played elsewhere than home leaves it up.
 * 3. "one knock short" (END-3): the blocked round is called after n - 1 passes in a row
 *   on an empty boneyard (the author counted "everybody else"), not n.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOP 16                /* the set's highest number */
#define NTILES ((TOP + 1) * (TOP + 2) / 2)
#define MAXSEATS 20
#define ROUNDS 9              /* house rule 2 */
#define MEX (-1)

static int bug_marker = 1, bug_draw_mark = 1, bug_short = 1, final_say = 0;
static const int HAND[MAXSEATS + 1] = {0, 0, 0, 18, 16, 15, 13, 12, 11};

/* ---------------------------------------------------------------- JSON values --- */

typedef enum { J_NULL, J_BOOL, J_INT, J_REAL, J_STR, J_ARR, J_OBJ } jkind;

typedef struct jval {
    jkind kind;
    long long i;             /* J_INT, J_BOOL */
    char *s;                 /* J_STR */
    struct jval **items;     /* J_ARR values, J_OBJ values */
    char **keys;             /* J_OBJ */
    int n;
} jval;

static void jfree(jval *v) {
    if (!v) return;
    for (int k = 0; k < v->n; k++) {
        jfree(v->items[k]);
        if (v->keys) free(v->keys[k]);
    }
    free(v->items);
    free(v->keys);
    free(v->s);
    free(v);
}

typedef struct { const char *p, *end; char err[160]; } parser;

static jval *jnew(jkind k) {
    jval *v = calloc(1, sizeof *v);
    if (!v) { fputs("tipper: out of memory\n", stderr); exit(3); }
    v->kind = k;
    return v;
}

static void push(jval *v, char *key, jval *item) {
    v->items = realloc(v->items, sizeof *v->items * (size_t)(v->n + 1));
    if (key || v->kind == J_OBJ) v->keys = realloc(v->keys, sizeof *v->keys * (size_t)(v->n + 1));
    if (!v->items || (v->kind == J_OBJ && !v->keys)) { fputs("tipper: out of memory\n", stderr); exit(3); }
    if (v->kind == J_OBJ) v->keys[v->n] = key;
    v->items[v->n++] = item;
}

static void ws(parser *ps) {
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static jval *parse_value(parser *ps, int depth);

static void put_utf8(char **buf, size_t *len, size_t *cap, unsigned cp) {
    char tmp[4]; int k = 0;
    if (cp < 0x80) tmp[k++] = (char)cp;
    else if (cp < 0x800) { tmp[k++] = (char)(0xC0 | cp >> 6); tmp[k++] = (char)(0x80 | (cp & 0x3F)); }
    else if (cp < 0x10000) {
        tmp[k++] = (char)(0xE0 | cp >> 12); tmp[k++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        tmp[k++] = (char)(0x80 | (cp & 0x3F));
    } else {
        tmp[k++] = (char)(0xF0 | cp >> 18); tmp[k++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        tmp[k++] = (char)(0x80 | ((cp >> 6) & 0x3F)); tmp[k++] = (char)(0x80 | (cp & 0x3F));
    }
    for (int j = 0; j < k; j++) {
        if (*len + 2 > *cap) { *cap = *cap * 2 + 16; *buf = realloc(*buf, *cap); }
        (*buf)[(*len)++] = tmp[j];
    }
}

static int hex4(parser *ps, unsigned *out) {
    if (ps->end - ps->p < 4) return 0;
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
        char c = ps->p[k];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return 0;
    }
    ps->p += 4;
    *out = v;
    return 1;
}

static char *parse_string(parser *ps) {
    size_t cap = 32, len = 0;
    char *buf = malloc(cap);
    ps->p++; /* the opening quote */
    while (ps->p < ps->end && *ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p;
        if (c < 0x20) { snprintf(ps->err, sizeof ps->err, "a control character in a string"); free(buf); return NULL; }
        if (c == '\\') {
            ps->p++;
            if (ps->p >= ps->end) break;
            char e = *ps->p++;
            unsigned cp;
            switch (e) {
            case '"': cp = '"'; break;
            case '\\': cp = '\\'; break;
            case '/': cp = '/'; break;
            case 'b': cp = '\b'; break;
            case 'f': cp = '\f'; break;
            case 'n': cp = '\n'; break;
            case 'r': cp = '\r'; break;
            case 't': cp = '\t'; break;
            case 'u':
                if (!hex4(ps, &cp)) { snprintf(ps->err, sizeof ps->err, "a bad \\u escape"); free(buf); return NULL; }
                if (cp >= 0xD800 && cp < 0xDC00 && ps->end - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u') {
                    unsigned lo; ps->p += 2;
                    if (!hex4(ps, &lo) || lo < 0xDC00 || lo > 0xDFFF) { snprintf(ps->err, sizeof ps->err, "a bad surrogate pair"); free(buf); return NULL; }
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                }
                break;
            default: snprintf(ps->err, sizeof ps->err, "a bad escape \\%c", e); free(buf); return NULL;
            }
            put_utf8(&buf, &len, &cap, cp);
            continue;
        }
        if (len + 2 > cap) { cap *= 2; buf = realloc(buf, cap); }
        buf[len++] = (char)c;
        ps->p++;
    }
    if (ps->p >= ps->end) { snprintf(ps->err, sizeof ps->err, "an unterminated string"); free(buf); return NULL; }
    ps->p++;
    buf[len] = 0;
    return buf;
}

static jval *parse_number(parser *ps) {
    const char *start = ps->p;
    int real = 0;
    if (*ps->p == '-') ps->p++;
    if (ps->p >= ps->end || !isdigit((unsigned char)*ps->p)) { snprintf(ps->err, sizeof ps->err, "a bad number"); return NULL; }
    if (*ps->p == '0') ps->p++;
    else while (ps->p < ps->end && isdigit((unsigned char)*ps->p)) ps->p++;
    if (ps->p < ps->end && *ps->p == '.') {
        real = 1; ps->p++;
        if (ps->p >= ps->end || !isdigit((unsigned char)*ps->p)) { snprintf(ps->err, sizeof ps->err, "a bad number"); return NULL; }
        while (ps->p < ps->end && isdigit((unsigned char)*ps->p)) ps->p++;
    }
    if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
        real = 1; ps->p++;
        if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-')) ps->p++;
        if (ps->p >= ps->end || !isdigit((unsigned char)*ps->p)) { snprintf(ps->err, sizeof ps->err, "a bad number"); return NULL; }
        while (ps->p < ps->end && isdigit((unsigned char)*ps->p)) ps->p++;
    }
    char tmp[64];
    size_t n = (size_t)(ps->p - start);
    if (n >= sizeof tmp) { /* far too long for anything this engine reads */
        jval *v = jnew(J_REAL); return v;
    }
    memcpy(tmp, start, n); tmp[n] = 0;
    if (real) {
        errno = 0;
        double d = strtod(tmp, NULL);
        if (errno == ERANGE && (d > 1 || d < -1)) { snprintf(ps->err, sizeof ps->err, "a number too large for a double"); return NULL; }
        return jnew(J_REAL);
    }
    errno = 0;
    long long x = strtoll(tmp, NULL, 10);
    if (errno == ERANGE) return jnew(J_REAL); /* an integer no field here can hold */
    jval *v = jnew(J_INT);
    v->i = x;
    return v;
}

static jval *parse_value(parser *ps, int depth) {
    ws(ps);
    if (ps->p >= ps->end) { snprintf(ps->err, sizeof ps->err, "unexpected end of line"); return NULL; }
    if (depth > 64) { snprintf(ps->err, sizeof ps->err, "nested too deep"); return NULL; }
    char c = *ps->p;
    if (c == '{') {
        jval *v = jnew(J_OBJ);
        ps->p++; ws(ps);
        if (ps->p < ps->end && *ps->p == '}') { ps->p++; return v; }
        for (;;) {
            ws(ps);
            if (ps->p >= ps->end || *ps->p != '"') { snprintf(ps->err, sizeof ps->err, "a key expected"); jfree(v); return NULL; }
            char *key = parse_string(ps);
            if (!key) { jfree(v); return NULL; }
            for (int k = 0; k < v->n; k++)
                if (!strcmp(v->keys[k], key)) {
                    snprintf(ps->err, sizeof ps->err, "the key \"%.60s\" given twice", key);
                    free(key); jfree(v); return NULL;
                }
            ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') { snprintf(ps->err, sizeof ps->err, "':' expected"); free(key); jfree(v); return NULL; }
            ps->p++;
            jval *item = parse_value(ps, depth + 1);
            if (!item) { free(key); jfree(v); return NULL; }
            push(v, key, item);
            ws(ps);
            if (ps->p < ps->end && *ps->p == ',') { ps->p++; continue; }
            if (ps->p < ps->end && *ps->p == '}') { ps->p++; return v; }
            snprintf(ps->err, sizeof ps->err, "',' or '}' expected"); jfree(v); return NULL;
        }
    }
    if (c == '[') {
        jval *v = jnew(J_ARR);
        ps->p++; ws(ps);
        if (ps->p < ps->end && *ps->p == ']') { ps->p++; return v; }
        for (;;) {
            jval *item = parse_value(ps, depth + 1);
            if (!item) { jfree(v); return NULL; }
            push(v, NULL, item);
            ws(ps);
            if (ps->p < ps->end && *ps->p == ',') { ps->p++; continue; }
            if (ps->p < ps->end && *ps->p == ']') { ps->p++; return v; }
            snprintf(ps->err, sizeof ps->err, "',' or ']' expected"); jfree(v); return NULL;
        }
    }
    if (c == '"') {
        char *s = parse_string(ps);
        if (!s) return NULL;
        jval *v = jnew(J_STR); v->s = s; return v;
    }
    if (c == '-' || isdigit((unsigned char)c)) return parse_number(ps);
    if (ps->end - ps->p >= 4 && !strncmp(ps->p, "true", 4)) { ps->p += 4; jval *v = jnew(J_BOOL); v->i = 1; return v; }
    if (ps->end - ps->p >= 5 && !strncmp(ps->p, "false", 5)) { ps->p += 5; return jnew(J_BOOL); }
    if (ps->end - ps->p >= 4 && !strncmp(ps->p, "null", 4)) { ps->p += 4; return jnew(J_NULL); }
    snprintf(ps->err, sizeof ps->err, "unexpected character '%c'", c);
    return NULL;
}

static jval *get(const jval *obj, const char *key) {
    if (!obj || obj->kind != J_OBJ) return NULL;
    for (int k = 0; k < obj->n; k++)
        if (!strcmp(obj->keys[k], key)) return obj->items[k];
    return NULL;
}

/* ---------------------------------------------------------------- the writer --- */

typedef struct { char *s; size_t len, cap; } sbuf;

static void out(sbuf *b, const char *fmt, ...) {
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int need = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (b->s && (size_t)need < b->cap - b->len) { b->len += (size_t)need; return; }
        b->cap = (b->cap + (size_t)need + 64) * 2;
        b->s = realloc(b->s, b->cap);
        if (!b->s) { fputs("tipper: out of memory\n", stderr); exit(3); }
    }
}

static void out_str(sbuf *b, const char *s) {
    out(b, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') out(b, "\\%c", c);
        else if (c < 0x20) out(b, "\\u%04x", c);
        else out(b, "%c", c);
    }
    out(b, "\"");
}

/* ---------------------------------------------------------------- the table --- */

typedef struct { int a, b; } tile;   /* a train's tile: a the near end, b the far end */

typedef struct {
    int round, engine, phase_over, seat, starter, n;
    int hand[MAXSEATS][NTILES]; int hn[MAXSEATS];
    int bone[NTILES]; int bn;
    tile train[MAXSEATS + 1][NTILES]; int tn[MAXSEATS + 1]; int end[MAXSEATS + 1];
    int marker[MAXSEATS];
    int drawn;                      /* a tile id, or -1 */
    int first[MAXSEATS];            /* 1 while the seat's first turn is to come */
    long long passes;
    long long scores[MAXSEATS], outs[MAXSEATS];
    int res_blocked, res_winner; long long res_scores[MAXSEATS];
} table;

#define MEXI(t) ((t)->n)        /* the Mexican Train's slot in train[], after the seats */

static int tid(int x, int y) { int hi = x > y ? x : y, lo = x > y ? y : x; return hi * (hi + 1) / 2 + lo; }
static int thi(int id) { int h = 0; while ((h + 1) * (h + 2) / 2 <= id) h++; return h; }
static int tlo(int id) { int h = thi(id); return id - h * (h + 1) / 2; }

/* A tile written "a-b" with ends 0 to 18; returns 1 and the ends, or 0. */
static int read_tile(const jval *v, int *x, int *y) {
    if (!v || v->kind != J_STR) return 0;
    const char *s = v->s;
    int k = 0, a = 0, b = 0, digits = 0;
    while (isdigit((unsigned char)s[k])) { a = a * 10 + (s[k] - '0'); k++; digits++; if (digits > 2) return 0; }
    if (!digits || (digits == 2 && s[k - 2] == '0') || s[k] != '-') return 0;
    k++; digits = 0;
    while (isdigit((unsigned char)s[k])) { b = b * 10 + (s[k] - '0'); k++; digits++; if (digits > 2) return 0; }
    if (!digits || (digits == 2 && s[k - 2] == '0') || s[k]) return 0;
    if (a > 18 || b > 18) return 0;
    *x = a; *y = b;
    return 1;
}

typedef struct { int kind; char msg[200]; const char *clause; } fault; /* kind: 0 none */
enum { F_NONE, F_BAD, F_UNSUPPORTED, F_SETUP };

static int set_fault(fault *f, int kind, const char *clause, const char *fmt, ...) {
    va_list ap; va_start(ap, fmt);
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
    va_end(ap);
    f->kind = kind; f->clause = clause;
    return 0;
}

static int read_int(const jval *v, long long lo, long long hi, long long *x) {
    if (!v || v->kind != J_INT || v->i < lo || v->i > hi) return 0;
    *x = v->i;
    return 1;
}

/* A tile of this set (ends 0 to 16), as its id. */
static int set_tile(const jval *v, int *id, fault *f, const char *where) {
    int x, y;
    if (!read_tile(v, &x, &y)) return set_fault(f, F_BAD, NULL, "%s: not a tile", where);
    if (x > TOP || y > TOP)
        return set_fault(f, F_UNSUPPORTED, NULL, "%s: %d-%d is not of the double-16 set", where, x, y);
    *id = tid(x, y);
    return 1;
}

static int read_tiles(const jval *v, int *ids, int *count, fault *f, const char *where) {
    if (!v || v->kind != J_ARR) return set_fault(f, F_BAD, NULL, "%s: a list of tiles expected", where);
    if (v->n > NTILES) return set_fault(f, F_BAD, NULL, "%s: too many tiles", where);
    for (int k = 0; k < v->n; k++)
        if (!set_tile(v->items[k], &ids[k], f, where)) return 0;
    *count = v->n;
    return 1;
}

static int read_train(const jval *v, table *t, int slot, fault *f, int personal) {
    const char *where = personal ? "a train" : "mexican";
    if (!v || v->kind != J_OBJ) return set_fault(f, F_BAD, NULL, "%s: an object expected", where);
    const jval *tiles = get(v, "tiles"), *end = get(v, "end");
    long long e;
    if (!read_int(end, 0, 18, &e)) return set_fault(f, F_BAD, NULL, "%s: end", where);
    if (e > TOP) return set_fault(f, F_UNSUPPORTED, NULL, "%s: end %lld is not of the set", where, e);
    if (!tiles || tiles->kind != J_ARR || tiles->n > NTILES)
        return set_fault(f, F_BAD, NULL, "%s: tiles", where);
    for (int k = 0; k < tiles->n; k++) {
        int x, y;
        if (!read_tile(tiles->items[k], &x, &y)) return set_fault(f, F_BAD, NULL, "%s: not a tile", where);
        if (x > TOP || y > TOP) return set_fault(f, F_UNSUPPORTED, NULL, "%s: a tile not of the set", where);
        t->train[slot][k].a = x; t->train[slot][k].b = y;
    }
    t->tn[slot] = tiles->n;
    t->end[slot] = (int)e;
    if (personal) {
        const jval *m = get(v, "marker");
        if (!m || m->kind != J_BOOL) return set_fault(f, F_BAD, NULL, "a train: marker");
        t->marker[slot] = (int)m->i;
    }
    return 1;
}

static int read_state(const jval *v, table *t, fault *f) {
    memset(t, 0, sizeof *t);
    if (!v || v->kind != J_OBJ) return set_fault(f, F_BAD, NULL, "state: an object expected");
    long long x;
    const jval *hands = get(v, "hands");
    if (!hands || hands->kind != J_ARR || hands->n < 1 || hands->n > MAXSEATS)
        return set_fault(f, F_BAD, NULL, "state: hands");
    t->n = hands->n;
    if (t->n < 3 || t->n > 8)
        return set_fault(f, F_SETUP, "DEAL-7", "tipper has no hand size for %d players (3 to 8)", t->n);
    if (!read_int(get(v, "round"), 1, 19, &x)) return set_fault(f, F_BAD, NULL, "state: round");
    t->round = (int)x;
    if (t->round > ROUNDS)
        return set_fault(f, F_UNSUPPORTED, NULL, "round %d: the pub's match is nine rounds", t->round);
    if (!read_int(get(v, "engine"), 0, 18, &x)) return set_fault(f, F_BAD, NULL, "state: engine");
    if (x > TOP) return set_fault(f, F_UNSUPPORTED, NULL, "engine %lld is not of the set", x);
    t->engine = (int)x;
    const jval *placed = get(v, "engine_placed"), *phase = get(v, "phase");
    if (!placed || placed->kind != J_BOOL) return set_fault(f, F_BAD, NULL, "state: engine_placed");
    if (!phase || phase->kind != J_STR) return set_fault(f, F_BAD, NULL, "state: phase");
    if (!strcmp(phase->s, "over")) t->phase_over = 1;
    else if (strcmp(phase->s, "start")) {
        if (!strcmp(phase->s, "engine") || !strcmp(phase->s, "chain") || !strcmp(phase->s, "follow"))
            return set_fault(f, F_UNSUPPORTED, NULL, "phase %s never comes in the pub's game", phase->s);
        return set_fault(f, F_BAD, NULL, "state: phase");
    }
    if (!placed->i) return set_fault(f, F_UNSUPPORTED, NULL, "the engine is always placed here");
    if (!read_int(get(v, "seat"), 0, 19, &x) || x >= t->n) return set_fault(f, F_BAD, NULL, "state: seat");
    t->seat = (int)x;
    if (!read_int(get(v, "starter"), 0, 19, &x) || x >= t->n) return set_fault(f, F_BAD, NULL, "state: starter");
    t->starter = (int)x;
    for (int s = 0; s < t->n; s++)
        if (!read_tiles(hands->items[s], t->hand[s], &t->hn[s], f, "hands")) return 0;
    if (!read_tiles(get(v, "boneyard"), t->bone, &t->bn, f, "boneyard")) return 0;
    const jval *trains = get(v, "trains");
    if (!trains || trains->kind != J_ARR || trains->n != t->n) return set_fault(f, F_BAD, NULL, "state: trains");
    for (int s = 0; s < t->n; s++)
        if (!read_train(trains->items[s], t, s, f, 1)) return 0;
    if (!read_train(get(v, "mexican"), t, MEXI(t), f, 0)) return 0;
    const jval *od = get(v, "open_doubles"), *td = get(v, "turn_doubles");
    if (!od || od->kind != J_ARR || !td || td->kind != J_ARR)
        return set_fault(f, F_BAD, NULL, "state: open_doubles, turn_doubles");
    if (od->n || td->n) return set_fault(f, F_UNSUPPORTED, NULL, "doubles are never open in the pub's game");
    const jval *dr = get(v, "drawn");
    if (!dr) return set_fault(f, F_BAD, NULL, "state: drawn");
    t->drawn = -1;
    if (dr->kind != J_NULL && !set_tile(dr, &t->drawn, f, "drawn")) return 0;
    const jval *ft = get(v, "first_turns");
    if (!ft || ft->kind != J_ARR) return set_fault(f, F_BAD, NULL, "state: first_turns");
    for (int k = 0; k < ft->n; k++) {
        if (!read_int(ft->items[k], 0, 19, &x) || x >= t->n) return set_fault(f, F_BAD, NULL, "state: first_turns");
        t->first[x] = 1;
    }
    if (!read_int(get(v, "passes"), 0, 2147483647LL, &t->passes)) return set_fault(f, F_BAD, NULL, "state: passes");
    const jval *sc = get(v, "scores"), *ou = get(v, "outs");
    if (!sc || sc->kind != J_ARR || sc->n != t->n) return set_fault(f, F_BAD, NULL, "state: scores");
    if (!ou || ou->kind != J_ARR || ou->n != t->n) return set_fault(f, F_BAD, NULL, "state: outs");
    for (int s = 0; s < t->n; s++) {
        if (!read_int(sc->items[s], 0, 2147483647LL, &t->scores[s])) return set_fault(f, F_BAD, NULL, "state: scores");
        if (!read_int(ou->items[s], 0, 19, &t->outs[s])) return set_fault(f, F_BAD, NULL, "state: outs");
    }
    const jval *res = get(v, "result");
    if (!res) return set_fault(f, F_BAD, NULL, "state: result");
    if (t->phase_over) {
        if (res->kind != J_OBJ) return set_fault(f, F_BAD, NULL, "state: an over round needs its result");
        const jval *end = get(res, "end"), *w = get(res, "winner"), *rs = get(res, "scores");
        if (!end || end->kind != J_STR || (strcmp(end->s, "domino") && strcmp(end->s, "blocked")))
            return set_fault(f, F_BAD, NULL, "result: end");
        t->res_blocked = !strcmp(end->s, "blocked");
        t->res_winner = -1;
        if (!w) return set_fault(f, F_BAD, NULL, "result: winner");
        if (w->kind != J_NULL) {
            if (!read_int(w, 0, 19, &x) || x >= t->n) return set_fault(f, F_BAD, NULL, "result: winner");
            t->res_winner = (int)x;
        }
        if (!rs || rs->kind != J_ARR || rs->n != t->n) return set_fault(f, F_BAD, NULL, "result: scores");
        for (int s = 0; s < t->n; s++)
            if (!read_int(rs->items[s], 0, 2147483647LL, &t->res_scores[s])) return set_fault(f, F_BAD, NULL, "result: scores");
    } else if (res->kind != J_NULL) return set_fault(f, F_BAD, NULL, "state: result while the round goes on");
    return 1;
}

static void out_tile(sbuf *b, int id) { out(b, "\"%d-%d\"", thi(id), tlo(id)); }

static void out_train_tiles(sbuf *b, const table *t, int slot) {
    out(b, "\"tiles\":[");
    for (int k = 0; k < t->tn[slot]; k++) out(b, "%s\"%d-%d\"", k ? "," : "", t->train[slot][k].a, t->train[slot][k].b);
    out(b, "],\"end\":%d", t->end[slot]);
}

static void out_state(sbuf *b, const table *t) {
    out(b, "{\"round\":%d,\"engine\":%d,\"engine_placed\":true,\"phase\":\"%s\",\"seat\":%d,\"starter\":%d,\"hands\":[",
        t->round, t->engine, t->phase_over ? "over" : "start", t->seat, t->starter);
    for (int s = 0; s < t->n; s++) {
        out(b, "%s[", s ? "," : "");
        for (int k = 0; k < t->hn[s]; k++) { if (k) out(b, ","); out_tile(b, t->hand[s][k]); }
        out(b, "]");
    }
    out(b, "],\"boneyard\":[");
    for (int k = 0; k < t->bn; k++) { if (k) out(b, ","); out_tile(b, t->bone[k]); }
    out(b, "],\"trains\":[");
    for (int s = 0; s < t->n; s++) {
        out(b, "%s{", s ? "," : "");
        out_train_tiles(b, t, s);
        out(b, ",\"marker\":%s}", t->marker[s] ? "true" : "false");
    }
    out(b, "],\"mexican\":{");
    out_train_tiles(b, t, MEXI(t));
    out(b, "},\"open_doubles\":[],\"turn_doubles\":[],\"drawn\":");
    if (t->drawn >= 0) out_tile(b, t->drawn); else out(b, "null");
    out(b, ",\"first_turns\":[");
    int comma = 0;
    for (int s = 0; s < t->n; s++) if (t->first[s]) { out(b, "%s%d", comma ? "," : "", s); comma = 1; }
    out(b, "],\"passes\":%lld,\"scores\":[", t->passes);
    for (int s = 0; s < t->n; s++) out(b, "%s%lld", s ? "," : "", t->scores[s]);
    out(b, "],\"outs\":[");
    for (int s = 0; s < t->n; s++) out(b, "%s%lld", s ? "," : "", t->outs[s]);
    out(b, "],\"result\":");
    if (!t->phase_over) out(b, "null}");
    else {
        out(b, "{\"end\":\"%s\",\"winner\":", t->res_blocked ? "blocked" : "domino");
        if (t->res_winner >= 0) out(b, "%d", t->res_winner); else out(b, "null");
        out(b, ",\"scores\":[");
        for (int s = 0; s < t->n; s++) out(b, "%s%lld", s ? "," : "", t->res_scores[s]);
        out(b, "]}}");
    }
}

/* ---------------------------------------------------------------- the rules --- */

/* May seat s lay on train slot tr? (TRAIN-4, MARK-2) */
static int may_use(const table *t, int s, int tr) {
    if (tr == MEXI(t) || tr == s) return 1;
    if (bug_marker) return t->marker[s];  /* planted bug 1: the mover's marker */
    return t->marker[tr];                 /* TRAIN-4: another's train only while marked */
}

static int fits(const table *t, int id, int tr) { return thi(id) == t->end[tr] || tlo(id) == t->end[tr]; }

static int hand_index(const table *t, int s, int id) {
    for (int k = 0; k < t->hn[s]; k++) if (t->hand[s][k] == id) return k;
    return -1;
}

static int can_play(const table *t) {
    int s = t->seat;
    for (int k = 0; k < t->hn[s]; k++) {
        int id = t->hand[s][k];
        if (t->drawn >= 0 && id != t->drawn) continue;  /* TURN-3: only the drawn tile */
        for (int tr = 0; tr <= t->n; tr++)
            if (may_use(t, s, tr) && fits(t, id, tr)) return 1;
    }
    return 0;
}

static long long value(const table *t, int s) {
    long long v = 0;
    for (int k = 0; k < t->hn[s]; k++) v += thi(t->hand[s][k]) + tlo(t->hand[s][k]);  /* SCORE-1 */
    return v;
}

static void finish(table *t, int winner) {
    t->phase_over = 1;
    t->res_blocked = winner < 0;
    t->res_winner = winner;
    t->drawn = -1;
    for (int s = 0; s < t->n; s++) {
        t->res_scores[s] = s == winner ? 0 : value(t, s);   /* SCORE-5 */
        t->scores[s] += t->res_scores[s];                   /* MATCH-1: the running total */
    }
    if (winner >= 0) t->outs[winner]++;
}

static void next_seat(table *t) {
    t->first[t->seat] = 0;
    t->drawn = -1;
    t->seat = (t->seat + 1) % t->n;                          /* SEAT-1 */
}

/* ---------------------------------------------------------------- requests --- */

static void answer_fault(sbuf *b, const jval *id, const fault *f) {
    static const char *kinds[] = {"", "bad-request", "unsupported", "refused-setup"};
    out(b, "{\"id\":");
    if (id && id->kind == J_INT) out(b, "%lld", id->i); else out(b, "null");
    out(b, ",\"ok\":false,\"error\":{\"kind\":\"%s\",\"message\":", kinds[f->kind]);
    out_str(b, f->msg);
    if (f->kind == F_SETUP) {
        if (f->clause) out(b, ",\"clause\":\"%s\"", f->clause); else out(b, ",\"clause\":null");
    }
    out(b, "}}");
}

static void hello(sbuf *b, long long id, const jval *req, fault *f) {
    long long proto;
    if (!read_int(get(req, "protocol"), 0, 1LL << 40, &proto)) { set_fault(f, F_BAD, NULL, "hello: protocol"); return; }
    if (proto != 1) {
        out(b, "{\"id\":%lld,\"ok\":false,\"error\":{\"kind\":\"protocol-version\",\"message\":\"tipper speaks protocol 1, not %lld\",\"supported\":[1]}}", id, proto);
        return;
    }
    out(b, "{\"id\":%lld,\"ok\":true,\"protocol\":1,\"name\":\"tipper\",\"version\":\"1.0\",\"rules\":{\"name\":\"tipper\",\"options\":{"
           "\"tile_set\":\"double-16\",\"hand_sizes\":\"custom\",\"engine_procedure\":\"other\",\"starting_seat\":\"rotate\","
           "\"first_turn\":\"single\",\"mexican_first_turn\":\"anyone\",\"own_train_first\":\"not-required\",\"doubles\":\"ordinary\","
           "\"follow_up\":\"anywhere\",\"double_order\":\"oldest-first\",\"uncoverable_double\":\"stays-open\","
           "\"marker_removal\":\"owner-plays-own\",\"draw_rule\":\"draw-one\",\"blocked_round\":\"full-round-of-passes\","
           "\"scoring\":\"penalty\",\"blank_values\":\"face\",\"tie_rule\":\"%s\",\"match_length\":\"other\"},"
           "\"hand_sizes\":{\"3\":18,\"4\":16,\"5\":15,\"6\":13,\"7\":12,\"8\":11}}}", id,
        final_say ? "other" : "shared");
}

static void deal(sbuf *b, long long id, const jval *req, fault *f) {
    long long players, round;
    if (!read_int(get(req, "players"), 1, 1LL << 40, &players)) { set_fault(f, F_BAD, NULL, "deal: players"); return; }
    if (!read_int(get(req, "round"), 1, 1LL << 40, &round)) { set_fault(f, F_BAD, NULL, "deal: round"); return; }
    if (players < 3 || players > 8) {
        set_fault(f, F_SETUP, "DEAL-7", "tipper has no hand size for %lld players (its table lists 3 to 8)", players);
        return;
    }
    if (round > ROUNDS) { set_fault(f, F_SETUP, NULL, "the pub's match ends after the [0-0] round, the ninth"); return; }
    table *t = calloc(1, sizeof *t);
    int pool[NTILES], pn, seen[NTILES] = {0};
    if (!read_tiles(get(req, "order"), pool, &pn, f, "order")) { free(t); return; }
    for (int k = 0; k < pn; k++) {
        if (seen[pool[k]]) { set_fault(f, F_BAD, NULL, "order: %d-%d twice", thi(pool[k]), tlo(pool[k])); free(t); return; }
        seen[pool[k]] = 1;
    }
    if (pn != NTILES) { set_fault(f, F_BAD, NULL, "order: %d tiles, not the whole set of %d", pn, NTILES); free(t); return; }
    t->n = (int)players; t->round = (int)round;
    t->engine = TOP - 2 * (t->round - 1);                    /* house rule 1: even stops */
    int eng = tid(t->engine, t->engine), k = 0;
    for (int s = 0; s < t->n; s++) {
        while (t->hn[s] < HAND[t->n]) {
            if (pool[k] != eng) t->hand[s][t->hn[s]++] = pool[k];
            k++;
        }
    }
    for (; k < pn; k++) if (pool[k] != eng) t->bone[t->bn++] = pool[k];
    for (int tr = 0; tr <= t->n; tr++) t->end[tr] = t->engine;
    t->seat = t->starter = (t->round - 1) % t->n;            /* SEAT-3 */
    for (int s = 0; s < t->n; s++) t->first[s] = 1;
    t->drawn = -1;
    out(b, "{\"id\":%lld,\"ok\":true,\"state\":", id);
    out_state(b, t);
    out(b, "}");
    free(t);
}

static void legal(sbuf *b, long long id, const jval *req, fault *f) {
    table *t = malloc(sizeof *t);
    if (!read_state(get(req, "state"), t, f)) { free(t); return; }
    out(b, "{\"id\":%lld,\"ok\":true,\"actions\":[", id);
    if (!t->phase_over) {
        int s = t->seat, any = 0;
        for (int k = 0; k < t->hn[s]; k++) {
            int tl = t->hand[s][k];
            if (t->drawn >= 0 && tl != t->drawn) continue;
            for (int tr = 0; tr <= t->n; tr++) {
                if (!may_use(t, s, tr) || !fits(t, tl, tr)) continue;
                out(b, "%s{\"type\":\"play\",\"tile\":\"%d-%d\",\"train\":", any ? "," : "", thi(tl), tlo(tl));
                if (tr == MEXI(t)) out(b, "\"mexican\"}"); else out(b, "%d}", tr);
                any = 1;
            }
        }
        if (!any) {
            if (t->drawn < 0 && t->bn > 0) out(b, "{\"type\":\"draw\"}");   /* TURN-2 */
            else out(b, "{\"type\":\"pass\"}");                             /* TURN-4 */
        }
    }
    out(b, "]}");
    free(t);
}

static void refuse(sbuf *b, long long id, const char *clause, const char *fmt, ...) {
    char msg[200];
    va_list ap; va_start(ap, fmt); vsnprintf(msg, sizeof msg, fmt, ap); va_end(ap);
    out(b, "{\"id\":%lld,\"ok\":true,\"refused\":{\"reason\":", id);
    out_str(b, msg);
    out(b, ",\"clause\":\"%s\"}}", clause);
}

static void apply(sbuf *b, long long id, const jval *req, fault *f) {
    const jval *action = get(req, "action");
    if (!action || action->kind != J_OBJ) { set_fault(f, F_BAD, NULL, "apply: action"); return; }
    const jval *type = get(action, "type");
    if (!type || type->kind != J_STR) { set_fault(f, F_BAD, NULL, "action: type"); return; }
    const char *kind = type->s;
    int play = !strcmp(kind, "play");
    if (!play && strcmp(kind, "draw") && strcmp(kind, "pass") && strcmp(kind, "end-chain")) {
        set_fault(f, F_BAD, NULL, "action: unknown type"); return;
    }
    int x = 0, y = 0; long long trn = -1; int mex = 0;
    if (play) {
        const jval *tv = get(action, "tile"), *tr = get(action, "train");
        if (!read_tile(tv, &x, &y)) { set_fault(f, F_BAD, NULL, "action: tile"); return; }
        if (tr && tr->kind == J_STR && !strcmp(tr->s, "mexican")) mex = 1;
        else if (!read_int(tr, 0, 1LL << 40, &trn)) { set_fault(f, F_BAD, NULL, "action: train"); return; }
        if (action->n != 3) { set_fault(f, F_BAD, NULL, "action: a play has type, tile and train only"); return; }
    } else if (action->n != 1) { set_fault(f, F_BAD, NULL, "action: %s has no other field", kind); return; }
    table *t = malloc(sizeof *t);
    if (!read_state(get(req, "state"), t, f)) { free(t); return; }
    int s = t->seat;
    if (t->phase_over) { refuse(b, id, "END-1", "the round is over"); free(t); return; }
    if (!strcmp(kind, "end-chain")) { refuse(b, id, "FIRST-7", "no chains here: one tile a turn"); free(t); return; }
    if (!play) {
        if (can_play(t)) { refuse(b, id, "TURN-1", "you can play a tile"); free(t); return; }
        if (!strcmp(kind, "draw")) {
            if (t->bn == 0) { refuse(b, id, "TURN-4", "the boneyard is empty"); free(t); return; }
            if (t->drawn >= 0) { refuse(b, id, "TURN-2", "one draw a turn"); free(t); return; }
            t->drawn = t->bone[0];                             /* TURN-2: the first tile */
            memmove(t->bone, t->bone + 1, sizeof t->bone[0] * (size_t)(t->bn - 1));
            t->bn--;
            t->hand[s][t->hn[s]++] = t->drawn;
            if (bug_draw_mark) t->marker[s] = 1;               /* planted bug 2 */
        } else {
            if (t->drawn < 0 && t->bn > 0) { refuse(b, id, "TURN-2", "draw first"); free(t); return; }
            t->marker[s] = 1;                                  /* TURN-4, MARK-1 */
            if (t->bn == 0) t->passes++;                       /* END-3 counts these */
            next_seat(t);
            long long full = bug_short ? t->n - 1 : t->n;     /* planted bug 3 */
            if (t->bn == 0 && t->passes >= full) finish(t, -1);  /* END-3 */
        }
    } else {
        if (x > TOP || y > TOP) { refuse(b, id, "SET-1", "%d-%d is not a tile of the double-16 set", x, y); free(t); return; }
        if (!mex && trn >= t->n) { refuse(b, id, "TRAIN-1", "there is no train %lld at a table of %d", trn, t->n); free(t); return; }
        int tr = mex ? MEXI(t) : (int)trn, tl = tid(x, y), at = hand_index(t, s, tl);
        if (at < 0) { refuse(b, id, "TURN-7", "%d-%d is not in your hand", x, y); free(t); return; }
        if (!fits(t, tl, tr)) { refuse(b, id, "TRAIN-2", "%d-%d does not match the open end %d", x, y, t->end[tr]); free(t); return; }
        if (t->drawn >= 0 && tl != t->drawn) { refuse(b, id, "TURN-3", "only the drawn tile may be played"); free(t); return; }
        if (!may_use(t, s, tr)) { refuse(b, id, "TRAIN-4", "seat %d's train is not marked", tr); free(t); return; }
        t->hand[s][at] = t->hand[s][--t->hn[s]];
        int near = t->end[tr], far = x == near ? y : x;
        t->train[tr][t->tn[tr]].a = near; t->train[tr][t->tn[tr]].b = far; t->tn[tr]++;
        t->end[tr] = far;                                      /* TRAIN-2 */
        if (tr == s) t->marker[s] = 0;                         /* MARK-3 */
        t->passes = 0;
        if (t->hn[s] == 0) { t->first[s] = 0; t->drawn = -1; finish(t, s); }  /* END-1 */
        else next_seat(t);                                     /* TURN-6, DBL-11 */
    }
    out(b, "{\"id\":%lld,\"ok\":true,\"state\":", id);
    out_state(b, t);
    out(b, "}");
    free(t);
}

static void score(sbuf *b, long long id, const jval *req, fault *f) {
    table *t = malloc(sizeof *t);
    if (!read_state(get(req, "state"), t, f)) { free(t); return; }
    const jval *w = get(req, "winner");
    long long winner = -1;
    if (!w) {
        if (!t->phase_over) { set_fault(f, F_BAD, NULL, "score: no winner given and the round is not over"); free(t); return; }
        winner = t->res_winner;
    } else if (w->kind != J_NULL) {
        if (!read_int(w, 0, 19, &winner) || winner >= t->n) { set_fault(f, F_BAD, NULL, "score: winner"); free(t); return; }
        if (t->hn[winner]) { set_fault(f, F_BAD, NULL, "score: seat %lld still holds tiles", winner); free(t); return; }
    }
    out(b, "{\"id\":%lld,\"ok\":true,\"scores\":[", id);
    for (int s = 0; s < t->n; s++) out(b, "%s%lld", s ? "," : "", s == winner ? 0 : value(t, s));
    out(b, "]}");
    free(t);
}

static void winners(sbuf *b, long long id, const jval *req, fault *f) {
    table *t = malloc(sizeof *t);
    if (!read_state(get(req, "state"), t, f)) { free(t); return; }
    out(b, "{\"id\":%lld,\"ok\":true,\"winners\":[", id);
    if (t->phase_over && t->round >= ROUNDS) {                  /* house rule 2 */
        long long best = t->scores[0];
        for (int s = 1; s < t->n; s++) if (t->scores[s] < best) best = t->scores[s];  /* MATCH-2 */
        long long last = -1;  /* house rule 3: the least of the tied in the last round */
        for (int s = 0; final_say && s < t->n; s++)
            if (t->scores[s] == best && (last < 0 || t->res_scores[s] < last)) last = t->res_scores[s];
        int comma = 0;
        for (int s = 0; s < t->n; s++)
            if (t->scores[s] == best && (last < 0 || t->res_scores[s] == last)) {
                out(b, "%s%d", comma ? "," : "", s);                           /* MATCH-4 */
                comma = 1;
            }
    }
    out(b, "]}");
    free(t);
}

static int handle(sbuf *b, char *line, size_t len) {
    parser ps = {line, line + len, ""};
    fault f = {0, "", NULL};
    jval *req = parse_value(&ps, 0);
    if (req) { ws(&ps); if (ps.p != ps.end) { snprintf(ps.err, sizeof ps.err, "text after the JSON value"); jfree(req); req = NULL; } }
    if (!req) {
        set_fault(&f, F_BAD, NULL, "not JSON: %s", ps.err);
        answer_fault(b, NULL, &f);
        return 0;
    }
    const jval *idv = get(req, "id"), *type = get(req, "type");
    int stop = 0;
    if (req->kind != J_OBJ || !idv || idv->kind != J_INT) {
        set_fault(&f, F_BAD, NULL, "a request is an object with an integer id");
        answer_fault(b, idv && idv->kind == J_INT ? idv : NULL, &f);
        jfree(req);
        return 0;
    }
    long long id = idv->i;
    if (!type || type->kind != J_STR) set_fault(&f, F_BAD, NULL, "no type");
    else if (!strcmp(type->s, "hello")) hello(b, id, req, &f);
    else if (!strcmp(type->s, "deal")) deal(b, id, req, &f);
    else if (!strcmp(type->s, "legal")) legal(b, id, req, &f);
    else if (!strcmp(type->s, "apply")) apply(b, id, req, &f);
    else if (!strcmp(type->s, "score")) score(b, id, req, &f);
    else if (!strcmp(type->s, "winners")) winners(b, id, req, &f);
    else if (!strcmp(type->s, "shutdown")) { out(b, "{\"id\":%lld,\"ok\":true}", id); stop = 1; }
    else set_fault(&f, F_BAD, NULL, "unknown request type");
    if (f.kind) { b->len = 0; answer_fault(b, idv, &f); }
    jfree(req);
    return stop;
}

int main(int argc, char **argv) {
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--fixed")) bug_marker = bug_draw_mark = bug_short = 0;
        else if (!strcmp(argv[k], "--bugs")) bug_marker = bug_draw_mark = bug_short = 1;
        else if (!strcmp(argv[k], "--final-say")) final_say = 1;
        else { fprintf(stderr, "tipper: unknown argument %s (--fixed, --bugs, --final-say)\n", argv[k]); return 2; }
    }
    char *line = NULL; size_t cap = 0; ssize_t got;
    sbuf b = {NULL, 0, 0};
    while ((got = getline(&line, &cap, stdin)) >= 0) {
        size_t len = (size_t)got;
        char *p = line;
        if (len && p[len - 1] == '\n') len--;
        if (len && p[len - 1] == '\r') len--;
        if (len >= 3 && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF) { p += 3; len -= 3; }
        size_t k = 0;
        while (k < len && (p[k] == ' ' || p[k] == '\t')) k++;
        if (k == len) continue;                                /* a blank line */
        b.len = 0;
        out(&b, "%s", "");
        int stop = handle(&b, p, len);
        fwrite(b.s, 1, b.len, stdout);
        fputc('\n', stdout);
        fflush(stdout);
        if (stop) break;
    }
    free(line);
    free(b.s);
    return 0;
}
