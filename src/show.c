/* show.c -- `arcrun show`: every sample of a task -- input, expected output,
 * and each program's output -- side by side, in ARC's ten colours on a
 * terminal, as digits otherwise (or with --no-color), or as one PNG image
 * per task (--png=DIR).  The programs run as `--format=jsonl` runs them. */
#include "show.h"
#include "driver.h"
#include "pngout.h"
#include "taskread.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdatomic.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ARC's palette, as its own viewer draws the colours 0..9 */
static const uint8_t palette[10][3] = {
    {0x00, 0x00, 0x00}, {0x00, 0x74, 0xD9}, {0xFF, 0x41, 0x36}, {0x2E, 0xCC, 0x40},
    {0xFF, 0xDC, 0x00}, {0xAA, 0xAA, 0xAA}, {0xF0, 0x12, 0xBE}, {0xFF, 0x85, 0x1B},
    {0x7F, 0xDB, 0xFF}, {0x87, 0x0C, 0x25},
};
static const uint8_t off_palette[3] = {0xFF, 0xFF, 0xFF};   /* a cell outside 0..9 */

typedef struct {
    int h, w;
    int *v;                  /* h * w cells */
} Pic;

typedef struct {
    char label[96];          /* "input", "expected", or "PROGRAM ok" */
    Pic pic;                 /* h == 0: no grid; then note says what came */
    char *note;
} Panel;

typedef struct {             /* a program's outcome on a sample, from its jsonl line */
    char *task, *sample, *program, *text;
    Pic pic;
    int correct;             /* 1, 0, -1 unknown */
} Outcome;

static Pic pic_of_bytes(const Task *t, GridBytes g)
{
    Pic p = {g.h, g.w, malloc(sizeof(int) * (size_t)(g.h * g.w + 1))};
    for (int k = 0; k < g.h * g.w; k++)
        p.v[k] = t->cells[g.off + (uint32_t)k];
    return p;
}

static Pic pic_of_json(const cJSON *a)
{
    Pic p = {0, 0, NULL};
    if (!cJSON_IsArray(a) || !cJSON_GetArraySize(a))
        return p;
    p.h = cJSON_GetArraySize(a);
    p.w = cJSON_GetArraySize(cJSON_GetArrayItem(a, 0));
    p.v = malloc(sizeof(int) * (size_t)(p.h * p.w + 1));
    int k = 0;
    for (const cJSON *row = a->child; row; row = row->next)
        for (const cJSON *c = row->child; c; c = c->next)
            if (k < p.h * p.w)
                p.v[k++] = cJSON_IsBool(c) ? cJSON_IsTrue(c) : (int)c->valuedouble;
    return p;
}

/* The programs' outcomes: the run's JSON Lines, read back. */
static Outcome *run_programs(IrModule *m, const TaskSet *ts, int jobs, int *n)
{
    static atomic_int never;
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    RunOptions ro = {.format = REPORT_JSONL, .quiet = 1, .jobs = jobs, .work_limit = 100000000,
                     .time_limit = 10, .interrupted = &never};
    report_run(m, ts, &ro, mem);
    fclose(mem);
    Outcome *o = NULL;
    int cap = 0;
    *n = 0;
    for (char *line = buf, *end; line && *line; line = end + 1) {
        end = strchr(line, '\n');
        *end = '\0';
        cJSON *j = cJSON_Parse(line);
        const cJSON *prog = cJSON_GetObjectItem(j, "program");
        if (cJSON_IsString(prog)) {
            if (*n == cap)
                o = realloc(o, sizeof *o * (size_t)(cap = cap ? 2 * cap : 64));
            const cJSON *err = cJSON_GetObjectItem(j, "error"), *out = cJSON_GetObjectItem(j, "output");
            const cJSON *ok = cJSON_GetObjectItem(j, "correct");
            o[*n] = (Outcome){
                strdup(cJSON_GetObjectItem(j, "task")->valuestring),
                strdup(cJSON_GetObjectItem(j, "sample")->valuestring), strdup(prog->valuestring),
                strdup(cJSON_IsString(err) ? err->valuestring : cJSON_IsString(out) ? out->valuestring : ""),
                pic_of_json(cJSON_GetObjectItem(j, "grid")),
                cJSON_IsBool(ok) ? cJSON_IsTrue(ok) : -1};
            (*n)++;
        }
        cJSON_Delete(j);
    }
    free(buf);
    return o;
}

/* ---- the terminal ------------------------------------------------------- */

static int cell_cols(bool color) { return color ? 2 : 1; }

static int panel_width(const Panel *p, bool color)
{
    int w = p->pic.w * cell_cols(color), l = (int)strlen(p->label);
    return w > l ? w : l;
}

static void draw_row(FILE *f, const Panel *p, int r, bool color, bool last)
{
    int width = panel_width(p, color), used = 0;
    if (r < p->pic.h) {
        for (int j = 0; j < p->pic.w; j++) {
            int c = p->pic.v[r * p->pic.w + j];
            if (color) {
                const uint8_t *rgb = c >= 0 && c <= 9 ? palette[c] : off_palette;
                fprintf(f, "\x1b[48;2;%d;%d;%dm  ", rgb[0], rgb[1], rgb[2]);
            } else {
                fputc(c >= 0 && c <= 9 ? '0' + c : '?', f);
            }
        }
        if (color)
            fputs("\x1b[0m", f);
        used = p->pic.w * cell_cols(color);
    }
    if (!last)
        fprintf(f, "%*s", width - used, "");
}

static void draw_sample(FILE *f, const char *name, const Panel *ps, int n, bool color)
{
    fprintf(f, "%s\n", name);
    int rows = 0;
    for (int i = 0; i < n; i++)
        rows = ps[i].pic.h > rows ? ps[i].pic.h : rows;
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%-*s", i ? "   " : "  ", i + 1 < n ? panel_width(&ps[i], color) : 0, ps[i].label);
    fputc('\n', f);
    for (int r = 0; r < rows; r++) {
        for (int i = 0; i < n; i++) {
            fputs(i ? "   " : "  ", f);
            draw_row(f, &ps[i], r, color, i + 1 == n);
        }
        fputc('\n', f);
    }
    for (int i = 0; i < n; i++)
        if (ps[i].note)
            fprintf(f, "  %s: %s\n", ps[i].label, ps[i].note);
}

/* ---- PNG: a task's samples one under another ----------------------------- */

enum { PX = 16, GAP = 16 };

static int sample_png_size(const Panel *ps, int n, int *w)
{
    int h = 0;
    *w = GAP;
    for (int i = 0; i < n; i++) {
        *w += ps[i].pic.w * PX + GAP;
        h = ps[i].pic.h * PX > h ? ps[i].pic.h * PX : h;
    }
    return h + GAP;
}

static void paint_sample(uint8_t *img, int imgw, int y0, const Panel *ps, int n)
{
    int x0 = GAP;
    for (int i = 0; i < n; i++) {
        const Pic *p = &ps[i].pic;
        for (int y = 0; y < p->h * PX; y++)
            for (int x = 0; x < p->w * PX; x++) {
                int c = p->v[(y / PX) * p->w + x / PX];
                bool line = y % PX == 0 || x % PX == 0;   /* the cell grid, as ARC's viewer */
                const uint8_t *rgb = c >= 0 && c <= 9 ? palette[c] : off_palette;
                uint8_t *px = img + ((size_t)(y0 + y) * (size_t)imgw + (size_t)(x0 + x)) * 3;
                for (int k = 0; k < 3; k++)
                    px[k] = line ? (uint8_t)(rgb[k] / 2 + 0x30) : rgb[k];
            }
        x0 += p->w * PX + GAP;
    }
}

/* ---- the command ---------------------------------------------------------- */

static void usage_show(FILE *f)
{
    fputs("Usage: arcrun show [OPTIONS] TASKS [PROGRAM...]\n"
          "Draw every sample of the tasks -- input, expected output, and each program's\n"
          "output beside them -- in ARC's colours on a terminal, as digits elsewhere.\n"
          "  --task=ID[,ID...]  only these tasks of TASKS\n"
          "  --no-color         digits, even on a terminal\n"
          "  --color            colours, even when not on a terminal\n"
          "  --png=DIR          write DIR/<task id>.png instead (needs libpng)\n"
          "  --dialect=NAME     as for a run\n"
          "  -j, --jobs=N       threads for the programs\n", f);
}

int cmd_show(int argc, char **argv)
{
    enum { O_NOCOLOR = 256, O_COLOR, O_PNG, O_TASK, O_DIALECT };
    static const struct option opts[] = {
        {"no-color", no_argument, NULL, O_NOCOLOR}, {"color", no_argument, NULL, O_COLOR},
        {"png", required_argument, NULL, O_PNG}, {"task", required_argument, NULL, O_TASK},
        {"dialect", required_argument, NULL, O_DIALECT}, {"jobs", required_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
    };
    int color = -1, jobs = 1, dialect = -1, c;
    const char *png_dir = NULL;
    char *ids[256];
    int nids = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "+hj:", opts, NULL)) != -1) {
        switch (c) {
        case O_NOCOLOR: color = 0; break;
        case O_COLOR: color = 1; break;
        case O_PNG:
            if (!png_available()) {
                fputs("arcrun: show --png: this arcrun was built without libpng "
                      "(apt-get install libpng-dev, then ./configure && make)\n", stderr);
                return 2;
            }
            png_dir = optarg;
            break;
        case O_TASK:
            for (char *id = strtok(optarg, ","); id && nids < 256; id = strtok(NULL, ","))
                ids[nids++] = id;
            break;
        case O_DIALECT:
            dialect = ir_dialect_parse(optarg);
            if (dialect < 0) {
                fprintf(stderr, "arcrun: unknown dialect '%s' (arc-dsl, re-arc or tokpidjin)\n", optarg);
                return 2;
            }
            break;
        case 'j': jobs = atoi(optarg) > 0 ? atoi(optarg) : 1; break;
        case 'h': usage_show(stdout); return 0;
        default: usage_show(stderr); return 2;
        }
    }
    if (optind >= argc) {
        usage_show(stderr);
        return 2;
    }
    TaskSet ts = {0};
    char err[1024];
    if (taskset_load(argv[optind], NULL, &ts, err, sizeof err) != 0) {
        fprintf(stderr, "arcrun: %s\n", err);
        return 3;
    }
    const char *missing;
    if (nids && taskset_select(&ts, ids, nids, &missing) != 0) {
        fprintf(stderr, "arcrun: show --task: no task '%s' in %s\n", missing, argv[optind]);
        taskset_free(&ts);
        return 3;
    }
    if (png_dir && mkdir(png_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "arcrun: show --png=%s: %s\n", png_dir, strerror(errno));
        taskset_free(&ts);
        return 3;
    }
    Outcome *outs = NULL;
    int nouts = 0;
    if (optind + 1 < argc) {
        char *perr = NULL;
        IrModule *m = ir_load_paths(argv + optind + 1, argc - optind - 1, NULL, dialect, &perr);
        if (!m) {
            fputs(perr ? perr : "arcrun: cannot load the program\n", stderr);
            free(perr);
            taskset_free(&ts);
            return 3;
        }
        outs = run_programs(m, &ts, jobs, &nouts);
        ir_free(m);
    }
    bool colors = color >= 0 ? color : isatty(1);
    int rc = 0;
    for (int k = 0; k < ts.ntasks && rc == 0; k++) {
        Task *t = &ts.tasks[k];
        task_open(t);           /* a streamed task's cells come back */
        if (!png_dir)
            printf("%s%s (%s)\n", k ? "\n" : "", t->id, t->split ? t->split : "");
        int ns = task_nsamples(t), imgw = 0, imgh = 0;
        Panel (*panels)[16] = calloc((size_t)ns, sizeof *panels);
        int *npanels = calloc((size_t)ns, sizeof *npanels);
        char (*names)[32] = calloc((size_t)ns, sizeof *names);
        for (int s = 0; s < ns; s++) {
            const Sample *sm = task_sample(t, s);
            Panel *ps = panels[s];
            int n = 0;
            sample_name(t, s, names[s], sizeof names[s]);
            ps[n] = (Panel){.pic = pic_of_bytes(t, sm->in)};
            snprintf(ps[n++].label, sizeof ps->label, "input %dx%d", sm->in.h, sm->in.w);
            if (sample_has_output(sm)) {
                ps[n] = (Panel){.pic = pic_of_bytes(t, sm->out)};
                snprintf(ps[n++].label, sizeof ps->label, "expected %dx%d", sm->out.h, sm->out.w);
            }
            for (int i = 0; i < nouts && n < 16; i++) {
                if (strcmp(outs[i].task, t->id) != 0 || strcmp(outs[i].sample, names[s]) != 0)
                    continue;
                ps[n] = (Panel){.pic = outs[i].pic};
                outs[i].pic.v = NULL;
                const char *verdict = outs[i].correct == 1 ? " ok" : outs[i].correct == 0 ? " wrong" : "";
                if (ps[n].pic.h)
                    snprintf(ps[n].label, sizeof ps->label, "%s %dx%d%s", outs[i].program,
                             ps[n].pic.h, ps[n].pic.w, verdict);
                else {
                    snprintf(ps[n].label, sizeof ps->label, "%s%s", outs[i].program, verdict);
                    ps[n].note = outs[i].text;
                }
                n++;
            }
            npanels[s] = n;
            if (png_dir) {
                int w, h = sample_png_size(ps, n, &w);
                imgw = w > imgw ? w : imgw;
                imgh += h;
            } else {
                draw_sample(stdout, names[s], ps, n, colors);
            }
        }
        if (png_dir) {
            uint8_t *img = calloc((size_t)imgw * (size_t)(imgh + GAP) * 3, 1);
            memset(img, 0xff, (size_t)imgw * (size_t)(imgh + GAP) * 3);
            int y = GAP;
            for (int s = 0; s < ns; s++) {
                int w;
                paint_sample(img, imgw, y, panels[s], npanels[s]);
                y += sample_png_size(panels[s], npanels[s], &w);
            }
            char path[4096];
            snprintf(path, sizeof path, "%s/%s.png", png_dir, t->id);
            if (png_write(path, img, (size_t)imgw, (size_t)(imgh + GAP), err, sizeof err) != 0) {
                fprintf(stderr, "arcrun: show --png: %s\n", err);
                rc = 3;
            }
            free(img);
        }
        for (int s = 0; s < ns; s++)
            for (int i = 0; i < npanels[s]; i++)
                free(panels[s][i].pic.v);
        free(panels);
        free(npanels);
        free(names);
        task_close(t);
    }
    if (png_dir && rc == 0)
        fprintf(stderr, "arcrun: wrote %d image%s to %s\n", ts.ntasks, ts.ntasks == 1 ? "" : "s", png_dir);
    for (int i = 0; i < nouts; i++) {
        free(outs[i].task), free(outs[i].sample), free(outs[i].program), free(outs[i].text);
        free(outs[i].pic.v);
    }
    free(outs);
    taskset_free(&ts);
    return rc;
}
