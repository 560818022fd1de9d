/* format_jsonl.c -- the JSON Lines a run writes: one per instance
 * (--format=jsonl), one per batt call, and --trace's. */
#include "format.h"
#include "jsonout.h"

#include <stdlib.h>
#include <string.h>

#include "vgrid.h"

const char *sample_name(const Task *t, int k, char *buf, size_t len)
{
    if (k < t->ntrain)
        snprintf(buf, len, "train/%d", k);
    else
        snprintf(buf, len, "test/%d", k - t->ntrain);
    return buf;
}

/* repr(v) as a JSON string */
static void json_repr(FILE *f, const Value *v)
{
    StrBuf sb;
    sb_init(&sb);
    sb_json_repr(&sb, v);
    fwrite(sb.buf, 1, sb.len, f);
    sb_free(&sb);
}

/* A line's opening: {"<program_key>": name, "task": id, "sample": "train/0". */
static void instance_key(FILE *f, const Instance *in, const char *program_key)
{
    char name[32];
    fprintf(f, "{\"%s\": ", program_key);
    json_string(f, in->prog->name);
    fputs(", \"task\": ", f);
    json_string(f, in->task->id);
    fputs(", \"sample\": ", f);
    json_string(f, sample_name(in->task, in->sample, name, sizeof name));
}

/* The trace schema of ../shared/golden/arc-dsl/traces.jsonl.gz, which
 * hashes the reprs past 20,000 characters. */
#define TRACE_REPR_MAX 20000
static void trace_key(FILE *f, const Instance *in)
{
    instance_key(f, in, "solver");
}

/* A grid as JSON arrays beside its repr, so a reader needs no Python
 * literal parser; nothing for any other value. */
static void json_grid(FILE *f, const char *key, Value *v)
{
    StrBuf sb;
    sb_init(&sb);
    sb_puts(&sb, ", \"");
    sb_puts(&sb, key);
    sb_puts(&sb, "\": ");
    if (sb_json_grid(&sb, v))
        fwrite(sb.buf, 1, sb.len, f);
    sb_free(&sb);
}

void fmt_jsonl_instance(FILE *out, const Instance *in, int ok)
{
    instance_key(out, in, "program");
    fprintf(out, ", \"correct\": %s, \"error\": ",
            ok < 0 ? "null" : ok ? "true" : "false");
    if (in->status == INST_DONE) {
        fputs("null, \"output\": ", out);
        json_repr(out, in->result);
        json_grid(out, "grid", in->result);
    } else {
        char where[160];
        json_string(out, in->error ? in->error : "error");
        fputs(", \"output\": null", out);
        instance_where(in, where, sizeof where);
        if (*where) {
            fputs(", \"where\": ", out);
            json_string(out, where);
        }
    }
    json_grid(out, "expected", task_sample(in->task, in->sample)->output);
    fputs("}\n", out);
}

/* A record's leading fields as JSON: ints, bools and strings. */
static void json_scalar(StrBuf *sb, const Value *v)
{
    if (v->type == V_STR)
        sb_json_str(sb, v);
    else if (v->type == V_BOOL)
        sb_puts(sb, v->u.i ? "true" : "false");
    else if (v->type == V_INT)
        sb_int(sb, v->u.i);
    else
        sb_json_repr(sb, v);
}

/* The reprs a line has written, as their place in it: a batt call's
 * candidates are often one grid, each written once and then copied.  A
 * value is its own again, or a byte grid one of equal cells (an int
 * grid's repr is its cells'; equal values of other kinds may not read
 * alike: (1,) == (True,)). */
typedef struct {
    const Value *v;
    size_t at, n;
} ReprSeen;

typedef struct {
    ReprSeen *e;
    size_t mask;
} ReprMemo;

static bool same_repr(const Value *a, const Value *b)
{
    if (a == b)
        return true;
    return vg_is(a) && vg_is(b) && a->u.tup.len == b->u.tup.len && vg_w(a) == vg_w(b) &&
           memcmp(vg_cells(a), vg_cells(b), a->u.tup.len * vg_w(a)) == 0;
}

/* repr(v) as a JSON string, copied where the line has it already */
static void memo_json_repr(StrBuf *sb, ReprMemo *m, Value *v)
{
    if (!m->e) {
        sb_json_repr(sb, v);
        return;
    }
    uint64_t h = vg_is(v) ? (uint64_t)v_hash(v) : (uint64_t)(uintptr_t)v * 0x9E3779B97F4A7C15u;
    size_t s = (size_t)(h ^ h >> 31) & m->mask;
    for (; m->e[s].v; s = (s + 1) & m->mask)
        if (same_repr(m->e[s].v, v)) {     /* not sb_putn: room may move the source */
            char *p = sb_room(sb, m->e[s].n);
            memcpy(p, sb->buf + m->e[s].at, m->e[s].n);
            sb->len += m->e[s].n;
            sb->buf[sb->len] = '\0';
            return;
        }
    size_t at = sb->len;
    sb_json_repr(sb, v);
    m->e[s] = (ReprSeen){v, at, sb->len - at};
}

/* One line per batt call, in the schema of ../shared/golden/batt/. */
void fmt_jsonl_batt(StrBuf *sb, const Instance *in)
{
    ReprMemo memo = {0};
    size_t nrec = (size_t)in->nrecords[0] + (size_t)in->nrecords[1];
    if (in->status == INST_DONE && nrec > 1) {
        for (memo.mask = 15; memo.mask < 2 * nrec; memo.mask = 2 * memo.mask + 1)
            ;
        memo.e = calloc(memo.mask + 1, sizeof *memo.e);     /* NULL: every repr written */
    }
    char name[32];
    sb_puts(sb, "{\"task\": ");
    sb_json_string(sb, in->task->id);
    sb_puts(sb, ", \"split\": ");
    sb_json_string(sb, in->task->split ? in->task->split : "");
    sb_puts(sb, ", \"sample\": ");
    sb_json_string(sb, sample_name(in->task, in->sample, name, sizeof name));
    sb_puts(sb, in->c_is_output ? ", \"C\": \"O\"" : ", \"C\": null");
    if (in->status != INST_DONE) {
        sb_puts(sb, ", \"o\": null, \"s\": null, \"error\": ");
        sb_json_string(sb, in->status == INST_BUDGET ? "timeout" : in->error);
        sb_puts(sb, "}\n");
    } else {
        /* o entries are [t, mutated, solver, repr]; s entries [t, solver, differ, repr] */
        static const char *const keys[2] = {", \"o\": [", ", \"s\": ["};
        static const int lists[2] = {1, 0};
        for (int k = 0; k < 2; k++) {
            int l = lists[k];
            sb_puts(sb, keys[k]);
            int nr = in->nrecords[l];
            for (int i = 0; i < nr; i++) {
                /* records were made long ago: the next ones and their
                 * reprs' values are fetched while this one is written */
                if (i + 2 < nr)
                    __builtin_prefetch(in->records[l][i + 2]);
                if (i + 1 < nr && in->records[l][i + 1]->u.tup.len) {
                    const Value *next = in->records[l][i + 1];
                    __builtin_prefetch(v_titems(next)[next->u.tup.len - 1]);
                }
                Value *rec = in->records[l][i];
                sb_puts(sb, i ? ", [" : "[");
                for (size_t j = 0; j < rec->u.tup.len; j++) {
                    if (j)
                        sb_putn(sb, ", ", 2);
                    if (j + 1 == rec->u.tup.len)
                        memo_json_repr(sb, &memo, v_titems(rec)[j]);
                    else
                        json_scalar(sb, v_titems(rec)[j]);
                }
                sb_putc(sb, ']');
            }
            sb_putc(sb, ']');
        }
        sb_puts(sb, ", \"error\": null}\n");
    }
    free(memo.e);
}

void fmt_trace_assign(FILE *f, const Instance *in, const IrStmt *s)
{
    if (s->kind == IR_EMPTY_LIST) {   /* s = [] / o = []: the list as assigned */
        trace_key(f, in);
        fprintf(f, ", \"var\": \"%s\", \"repr\": \"[]\"}\n", s->dst ? "o" : "s");
        return;
    }
    int n = s->kind == IR_UNPACK ? s->ndst : 1;
    for (int i = 0; i < n; i++) {
        int slot = s->kind == IR_UNPACK ? s->dsts[i] : s->dst;
        const char *var = in->prog->slot_names[slot];
        if (var[0] == '_')      /* temporaries of nested calls */
            continue;
        trace_key(f, in);
        fputs(", \"var\": ", f);
        json_string(f, var);
        StrBuf sb;
        sb_init(&sb);
        sb_puts(&sb, ", ");
        sb_json_trace_repr(&sb, in->env[slot], TRACE_REPR_MAX);
        sb_puts(&sb, "}\n");
        fwrite(sb.buf, 1, sb.len, f);
        sb_free(&sb);
    }
}

void fmt_trace_end(FILE *f, const Instance *in, int ok)
{
    trace_key(f, in);
    fprintf(f, ", \"correct\": %s, \"error\": ",
            ok < 0 ? "null" : ok ? "true" : "false");
    if (in->status == INST_DONE)
        fputs("null", f);
    else
        json_string(f, in->status == INST_BUDGET ? "timeout" : in->error);
    fputs("}\n", f);
}

void fmt_jsonl_summary(FILE *out, const RunCounts *c, int ngroups, int unpaired, bool interrupted,
                       bool batt)
{
    fputs("{\"summary\": {", out);
    if (batt)
        fprintf(out, "\"batt_calls\": %ld, \"raised\": %ld", c->batt_calls, c->errors);
    else
        fprintf(out, "\"pairs\": %d, \"pairs_finished\": %ld, \"pairs_solved\": %ld, "
                "\"samples_scored\": %ld, \"samples_correct\": %ld, \"samples_unscored\": %ld, "
                "\"raised\": %ld, \"programs_without_task\": %d",
                ngroups, c->groups_done, c->groups_solved, c->pairs, c->pairs_correct, c->unscored,
                c->errors, unpaired);
    fprintf(out, ", \"stopped_by_work_budget\": %ld, \"stopped_by_time_budget\": %ld, "
            "\"interrupted\": %s}", c->work_stops, c->time_stops, interrupted ? "true" : "false");
    fputs(", \"program\": null, \"task\": null, \"sample\": null, \"correct\": null, "
          "\"error\": null, \"output\": null}\n", out);
}
