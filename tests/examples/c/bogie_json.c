/* The JSON bogie reads and writes (tests/examples/c/bogie_engine.c): a small tree for a
 * request, and a growing buffer for an answer. */
#include "bogie_json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a small JSON tree ---------------------------------------------------------------- */

static const char *jp;
static const char *jerr;

void jfree(jv *x) {
    if (!x) return;
    for (size_t i = 0; i < x->n; i++) {
        jfree(x->v[i]);
        if (x->k) free(x->k[i]);
    }
    free(x->v);
    free(x->k);
    free(x->s);
    free(x);
}

static void ws(void) { while (*jp == ' ' || *jp == '\t' || *jp == '\r' || *jp == '\n') jp++; }

static jv *jnew(int t) { jv *x = calloc(1, sizeof *x); x->t = t; return x; }

static char *jstring(void) {
    if (*jp != '"') { jerr = "a string expected"; return NULL; }
    jp++;
    size_t cap = 16, n = 0;
    char *out = malloc(cap);
    while (*jp && *jp != '"') {
        char c = *jp++;
        if (c == '\\') {
            char e = *jp++;
            switch (e) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u': c = '?'; jp += 4; break; /* no tile name needs one */
            case '"': case '\\': case '/': c = e; break;
            default: free(out); jerr = "a bad escape"; return NULL;
            }
        }
        if (n + 2 > cap) out = realloc(out, cap *= 2);
        out[n++] = c;
    }
    if (*jp != '"') { free(out); jerr = "an unterminated string"; return NULL; }
    jp++;
    out[n] = 0;
    return out;
}

static jv *jvalue(int depth);

static void jpush(jv *x, char *key, jv *item) {
    x->v = realloc(x->v, (x->n + 1) * sizeof *x->v);
    if (x->t == J_OBJ) x->k = realloc(x->k, (x->n + 1) * sizeof *x->k), x->k[x->n] = key;
    x->v[x->n++] = item;
}

static jv *jvalue(int depth) {
    ws();
    if (depth > 64) { jerr = "nested too deep"; return NULL; }
    if (*jp == '{' || *jp == '[') {
        int obj = *jp == '{';
        jv *x = jnew(obj ? J_OBJ : J_ARR);
        jp++;
        ws();
        if (*jp == (obj ? '}' : ']')) { jp++; return x; }
        for (;;) {
            char *key = NULL;
            if (obj) {
                ws();
                if (!(key = jstring())) { jfree(x); return NULL; }
                for (size_t i = 0; i < x->n; i++)
                    if (!strcmp(x->k[i], key)) { free(key); jfree(x); jerr = "a key twice"; return NULL; }
                ws();
                if (*jp++ != ':') { free(key); jfree(x); jerr = "':' expected"; return NULL; }
            }
            jv *item = jvalue(depth + 1);
            if (!item) { free(key); jfree(x); return NULL; }
            jpush(x, key, item);
            ws();
            if (*jp == ',') { jp++; continue; }
            if (*jp == (obj ? '}' : ']')) { jp++; return x; }
            jfree(x);
            jerr = "',' expected";
            return NULL;
        }
    }
    if (*jp == '"') {
        char *s = jstring();
        if (!s) return NULL;
        jv *x = jnew(J_STR);
        x->s = s;
        return x;
    }
    if (!strncmp(jp, "true", 4) || !strncmp(jp, "false", 5)) {
        jv *x = jnew(J_BOOL);
        x->b = *jp == 't';
        jp += x->b ? 4 : 5;
        return x;
    }
    if (!strncmp(jp, "null", 4)) { jp += 4; return jnew(J_NULL); }
    if (*jp == '-' || (*jp >= '0' && *jp <= '9')) {
        const char *start = jp;
        if (*jp == '-') jp++;
        while (*jp >= '0' && *jp <= '9') jp++;
        int isint = 1;
        if (*jp == '.' || *jp == 'e' || *jp == 'E') {
            isint = 0;
            jp++;
            while ((*jp >= '0' && *jp <= '9') || *jp == '+' || *jp == '-' || *jp == 'e' || *jp == 'E') jp++;
        }
        jv *x = jnew(J_NUM);
        x->isint = isint && jp - start < 18;
        x->i = strtoll(start, NULL, 10);
        return x;
    }
    jerr = "not JSON";
    return NULL;
}

jv *json_parse(const char *text, const char **error) {
    jp = text;
    jerr = NULL;
    jv *x = jvalue(0);
    if (x) {
        ws();
        if (*jp) { jfree(x); x = NULL; jerr = "trailing characters"; }
    }
    *error = x ? NULL : jerr ? jerr : "not JSON";
    return x;
}

jv *jget(const jv *x, const char *key) {
    if (!x || x->t != J_OBJ) return NULL;
    for (size_t i = 0; i < x->n; i++)
        if (!strcmp(x->k[i], key)) return x->v[i];
    return NULL;
}

/* ---- an output buffer ----------------------------------------------------------------- */

void bput(buf *b, const char *fmt, ...) {
    va_list ap;
    for (;;) {
        size_t room = b->cap - b->n;
        va_start(ap, fmt);
        int need = vsnprintf(b->p + b->n, room, fmt, ap);
        va_end(ap);
        if ((size_t)need < room) { b->n += (size_t)need; return; }
        b->cap = (b->cap + (size_t)need) * 2;
        b->p = realloc(b->p, b->cap);
    }
}

void bstr(buf *b, const char *s) {
    bput(b, "\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') bput(b, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) bput(b, "\\u%04x", *s);
        else bput(b, "%c", *s);
    }
    bput(b, "\"");
}
