/* The JSON bogie reads and writes (bogie_json.c). */
#ifndef BOGIE_JSON_H
#define BOGIE_JSON_H

#include <stddef.h>

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };
typedef struct jv {
    int t, b, isint;
    long long i;
    char *s;
    struct jv **v;
    char **k;
    size_t n;
} jv;

/* One JSON value and nothing after it but blanks; NULL (and why in *error) if not. */
jv *json_parse(const char *text, const char **error);
void jfree(jv *x);
jv *jget(const jv *x, const char *key); /* an object's member, or NULL */

typedef struct { char *p; size_t n, cap; } buf;
void bput(buf *b, const char *fmt, ...); /* printf onto the end */
void bstr(buf *b, const char *s);        /* a JSON string */

#endif
