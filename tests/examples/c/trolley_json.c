/* trolley_json.c: see trolley_json.h. */
#include "trolley_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- the arena: blocks kept in a list, all freed at once --------------------------- */

typedef struct block {
    struct block *next;
    size_t used, size;
    char data[];
} block;

static block *arena;

static void *grab(size_t n) {
    n = (n + 15) & ~(size_t)15;
    if (!arena || arena->used + n > arena->size) {
        size_t size = n > 65536 ? n : 65536;
        block *b = malloc(sizeof(block) + size);
        if (!b) {
            fputs("trolley: out of memory\n", stderr);
            exit(3);
        }
        b->next = arena;
        b->used = 0;
        b->size = size;
        arena = b;
    }
    void *p = arena->data + arena->used;
    arena->used += n;
    return p;
}

void json_reset(void) {
    while (arena) {
        block *next = arena->next;
        free(arena);
        arena = next;
    }
}

/* --- the reader ---------------------------------------------------------------------- */

typedef struct {
    const char *begin, *at, *end;
    char *why;
    size_t room;
    int failed;
    int depth;
} reader;

static void fail(reader *r, const char *message) {
    if (!r->failed)
        snprintf(r->why, r->room, "%s at character %ld", message,
                 (long)(r->at - r->begin));
    r->failed = 1;
}

static void blanks(reader *r) {
    while (r->at < r->end && (*r->at == ' ' || *r->at == '\t' || *r->at == '\n'
                              || *r->at == '\r'))
        r->at++;
}

static jval *fresh(jkind kind) {
    jval *v = grab(sizeof(jval));
    memset(v, 0, sizeof *v);
    v->kind = kind;
    return v;
}

static jval *value(reader *r);

static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void put_utf8(char **out, unsigned code) {
    char *o = *out;
    if (code < 0x80) {
        *o++ = (char)code;
    } else if (code < 0x800) {
        *o++ = (char)(0xC0 | code >> 6);
        *o++ = (char)(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
        *o++ = (char)(0xE0 | code >> 12);
        *o++ = (char)(0x80 | (code >> 6 & 0x3F));
        *o++ = (char)(0x80 | (code & 0x3F));
    } else {
        *o++ = (char)(0xF0 | code >> 18);
        *o++ = (char)(0x80 | (code >> 12 & 0x3F));
        *o++ = (char)(0x80 | (code >> 6 & 0x3F));
        *o++ = (char)(0x80 | (code & 0x3F));
    }
    *out = o;
}

static int four_hex(reader *r, unsigned *code) {
    if (r->end - r->at < 4) return 0;
    unsigned c = 0;
    for (int i = 0; i < 4; i++) {
        int h = hex(r->at[i]);
        if (h < 0) return 0;
        c = c * 16 + (unsigned)h;
    }
    r->at += 4;
    *code = c;
    return 1;
}

static char *string(reader *r) {
    r->at++; /* the opening quote */
    const char *start = r->at;
    size_t most = 0;
    while (r->at < r->end && *r->at != '"') {
        if (*r->at == '\\') r->at++;
        r->at++;
        most++;
    }
    if (r->at >= r->end) {
        fail(r, "unterminated string");
        return NULL;
    }
    r->at = start;
    char *text = grab(most * 4 + 1), *o = text;
    while (*r->at != '"') {
        unsigned char c = (unsigned char)*r->at;
        if (c < 0x20) {
            fail(r, "a control character in a string");
            return NULL;
        }
        if (c != '\\') {
            *o++ = (char)c;
            r->at++;
            continue;
        }
        r->at++;
        char e = *r->at++;
        switch (e) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            unsigned code;
            if (!four_hex(r, &code)) {
                fail(r, "a bad \\u escape");
                return NULL;
            }
            if (code >= 0xD800 && code < 0xDC00 && r->end - r->at >= 6 && r->at[0] == '\\'
                && r->at[1] == 'u') {
                unsigned low;
                r->at += 2;
                if (four_hex(r, &low) && low >= 0xDC00 && low < 0xE000)
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            }
            put_utf8(&o, code);
            break;
        }
        default:
            fail(r, "a bad escape");
            return NULL;
        }
    }
    r->at++; /* the closing quote */
    *o = 0;
    return text;
}

static jval *number(reader *r) {
    const char *start = r->at;
    int whole = 1;
    if (*r->at == '-') r->at++;
    if (r->at >= r->end || *r->at < '0' || *r->at > '9') {
        fail(r, "a bad number");
        return NULL;
    }
    if (*r->at == '0' && r->at + 1 < r->end && r->at[1] >= '0' && r->at[1] <= '9') {
        fail(r, "a number with a leading zero");
        return NULL;
    }
    while (r->at < r->end && *r->at >= '0' && *r->at <= '9') r->at++;
    if (r->at < r->end && *r->at == '.') {
        whole = 0;
        r->at++;
        if (r->at >= r->end || *r->at < '0' || *r->at > '9') {
            fail(r, "a bad fraction");
            return NULL;
        }
        while (r->at < r->end && *r->at >= '0' && *r->at <= '9') r->at++;
    }
    if (r->at < r->end && (*r->at == 'e' || *r->at == 'E')) {
        whole = 0;
        r->at++;
        if (r->at < r->end && (*r->at == '+' || *r->at == '-')) r->at++;
        if (r->at >= r->end || *r->at < '0' || *r->at > '9') {
            fail(r, "a bad exponent");
            return NULL;
        }
        while (r->at < r->end && *r->at >= '0' && *r->at <= '9') r->at++;
    }
    jval *v = fresh(J_NUMBER);
    v->whole = whole;
    size_t n = (size_t)(r->at - start);
    char digits[64];
    if (whole) {
        if (n > 19) {
            v->too_big = 1;
        } else {
            memcpy(digits, start, n);
            digits[n] = 0;
            v->integer = strtoll(digits, NULL, 10);
        }
    } else {
        /* a decimal too large for a double is not JSON the protocol takes */
        char *copy = grab(n + 1);
        memcpy(copy, start, n);
        copy[n] = 0;
        double d = strtod(copy, NULL);
        if (d > 1.7976931348623157e308 || d < -1.7976931348623157e308) {
            fail(r, "a number too large for a double");
            return NULL;
        }
    }
    return v;
}

static int word(reader *r, const char *w) {
    size_t n = strlen(w);
    if ((size_t)(r->end - r->at) >= n && memcmp(r->at, w, n) == 0) {
        r->at += n;
        return 1;
    }
    return 0;
}

static jval *members(reader *r, int object) {
    jval *v = fresh(object ? J_OBJECT : J_ARRAY);
    size_t room = 8;
    v->items = grab(room * sizeof(jval *));
    if (object) v->keys = grab(room * sizeof(char *));
    r->at++;
    blanks(r);
    char close = object ? '}' : ']';
    if (r->at < r->end && *r->at == close) {
        r->at++;
        return v;
    }
    for (;;) {
        char *key = NULL;
        blanks(r);
        if (object) {
            if (r->at >= r->end || *r->at != '"') {
                fail(r, "an object key is not a string");
                return NULL;
            }
            key = string(r);
            if (!key) return NULL;
            for (size_t i = 0; i < v->count; i++)
                if (strcmp(v->keys[i], key) == 0) {
                    fail(r, "a key given twice");
                    return NULL;
                }
            blanks(r);
            if (r->at >= r->end || *r->at != ':') {
                fail(r, "':' expected");
                return NULL;
            }
            r->at++;
        }
        jval *item = value(r);
        if (!item) return NULL;
        if (v->count == room) {
            jval **items = grab(room * 2 * sizeof(jval *));
            memcpy(items, v->items, room * sizeof(jval *));
            v->items = items;
            if (object) {
                char **keys = grab(room * 2 * sizeof(char *));
                memcpy(keys, v->keys, room * sizeof(char *));
                v->keys = keys;
            }
            room *= 2;
        }
        if (object) v->keys[v->count] = key;
        v->items[v->count++] = item;
        blanks(r);
        if (r->at < r->end && *r->at == ',') {
            r->at++;
            continue;
        }
        if (r->at < r->end && *r->at == close) {
            r->at++;
            return v;
        }
        fail(r, object ? "',' or '}' expected" : "',' or ']' expected");
        return NULL;
    }
}

static jval *value(reader *r) {
    blanks(r);
    if (r->at >= r->end) {
        fail(r, "a value expected");
        return NULL;
    }
    if (++r->depth > 200) {
        fail(r, "nested too deeply");
        return NULL;
    }
    jval *v = NULL;
    char c = *r->at;
    if (c == '{' || c == '[') {
        v = members(r, c == '{');
    } else if (c == '"') {
        char *text = string(r);
        if (text) {
            v = fresh(J_STRING);
            v->text = text;
        }
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        v = number(r);
    } else if (word(r, "true")) {
        v = fresh(J_BOOL);
        v->truth = 1;
    } else if (word(r, "false")) {
        v = fresh(J_BOOL);
    } else if (word(r, "null")) {
        v = fresh(J_NULL);
    } else {
        fail(r, "a value expected");
    }
    r->depth--;
    return v;
}

jval *json_parse(const char *line, size_t length, char *why, size_t room) {
    reader r = {line, line, line + length, why, room, 0, 0};
    jval *v = value(&r);
    if (!v) return NULL;
    blanks(&r);
    if (r.at != r.end) {
        fail(&r, "text after the value");
        return NULL;
    }
    return v;
}

jval *json_get(const jval *object, const char *key) {
    if (!object || object->kind != J_OBJECT) return NULL;
    for (size_t i = 0; i < object->count; i++)
        if (strcmp(object->keys[i], key) == 0) return object->items[i];
    return NULL;
}

/* --- the writer ---------------------------------------------------------------------- */

static void room_for(jbuf *b, size_t n) {
    if (b->used + n + 1 <= b->size) return;
    size_t size = b->size ? b->size : 4096;
    while (b->used + n + 1 > size) size *= 2;
    b->data = realloc(b->data, size);
    if (!b->data) {
        fputs("trolley: out of memory\n", stderr);
        exit(3);
    }
    b->size = size;
}

void buf_text(jbuf *b, const char *text) {
    size_t n = strlen(text);
    room_for(b, n);
    memcpy(b->data + b->used, text, n);
    b->used += n;
    b->data[b->used] = 0;
}

void buf_char(jbuf *b, char c) {
    room_for(b, 1);
    b->data[b->used++] = c;
    b->data[b->used] = 0;
}

void buf_int(jbuf *b, long long value) {
    char digits[32];
    snprintf(digits, sizeof digits, "%lld", value);
    buf_text(b, digits);
}

void buf_string(jbuf *b, const char *text) {
    buf_char(b, '"');
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '"' || *p == '\\') {
            buf_char(b, '\\');
            buf_char(b, (char)*p);
        } else if (*p < 0x20) {
            char esc[8];
            snprintf(esc, sizeof esc, "\\u%04x", *p);
            buf_text(b, esc);
        } else {
            buf_char(b, (char)*p);
        }
    }
    buf_char(b, '"');
}
