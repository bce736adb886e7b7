/* trolley_json.h: the small strict JSON reader and writer trolley needs.
 *
 * Written for trolley alone: one value tree per request line, from an arena that is
 * emptied before the next line; a writer that appends to one growing buffer. Strict as
 * the protocol asks: no NaN or Infinity, no key twice in one object, no trailing text. */
#ifndef TROLLEY_JSON_H
#define TROLLEY_JSON_H

#include <stddef.h>

typedef enum { J_NULL, J_BOOL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT } jkind;

typedef struct jval {
    jkind kind;
    int truth;            /* J_BOOL */
    int whole;            /* J_NUMBER: written as an integer (no '.', no exponent) */
    long long integer;    /* J_NUMBER when whole and within range */
    int too_big;          /* J_NUMBER: whole but past what a long long holds */
    char *text;           /* J_STRING (NUL-terminated; an embedded NUL ends it) */
    size_t count;         /* J_ARRAY, J_OBJECT: members */
    struct jval **items;  /* J_ARRAY, J_OBJECT: values */
    char **keys;          /* J_OBJECT: keys */
} jval;

/* Parse one line; NULL on failure, with a message in `why` (at most `room` bytes). */
jval *json_parse(const char *line, size_t length, char *why, size_t room);
/* Free everything json_parse handed out since the last reset. */
void json_reset(void);
/* The member `key` of an object, or NULL. */
jval *json_get(const jval *object, const char *key);

/* An output buffer. */
typedef struct {
    char *data;
    size_t used, size;
} jbuf;

void buf_text(jbuf *b, const char *text);
void buf_char(jbuf *b, char c);
void buf_int(jbuf *b, long long value);
void buf_string(jbuf *b, const char *text); /* quoted and escaped */

#endif
