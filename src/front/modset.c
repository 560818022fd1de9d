/* modset.c -- the programs of a run from several paths: files, and
 * directories of them.  Each file stays its own module (its own top-level
 * names, as each is its own Python module); the run sees their programs
 * side by side, in the order of the paths and, in a directory, of the file
 * names. */
#include "lower.h"

#include <dirent.h>
#include <sys/stat.h>

static bool program_file(const char *name)
{
    size_t n = strlen(name);
    return name[0] != '.' && ((n > 3 && strcmp(name + n - 3, ".py") == 0) ||
                              (n > 4 && strcmp(name + n - 4, ".dsl") == 0));
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_error(char **all, size_t *len, const char *msg)
{
    size_t n = strlen(msg);
    *all = lower_realloc(*all, *len + n + 1);
    memcpy(*all + *len, msg, n + 1);
    *len += n;
}

/* A directory's <id>.py defining `solve` is the solver of task <id>, as
 * forks of arc-dsl ship them: its `solve` runs as solve_<id>. */
static void name_by_file(IrModule *m, const char *file)
{
    size_t n = strlen(file) - (strrchr(file, '.') ? strlen(strrchr(file, '.')) : 0);
    for (int i = 0; i < m->nprogs; i++)
        if (strcmp(m->progs[i].name, "solve") == 0 && !m->progs[i].called) {
            char *name = lower_realloc(NULL, n + 7);
            snprintf(name, n + 7, "solve_%.*s", (int)n, file);
            free(m->progs[i].name);
            m->progs[i].name = name;
        }
}

IrModule *ir_load_paths(char *const *paths, int npaths, const char *stdin_text, int dialect,
                        char **errmsg)
{
    struct stat st;
    if (npaths == 1 && strcmp(paths[0], "-") == 0)
        return ir_load_string("<stdin>", stdin_text ? stdin_text : "", dialect, errmsg);
    if (npaths == 1 && (stat(paths[0], &st) != 0 || !S_ISDIR(st.st_mode)))
        return ir_load_file(paths[0], dialect, errmsg);
    IrModule **parts = NULL;
    int nparts = 0;
    char *errs = NULL;
    size_t errlen = 0;
    for (int p = 0; p < npaths; p++) {
        char **files = NULL;
        int nfiles = 0;
        bool dir = strcmp(paths[p], "-") != 0 && stat(paths[p], &st) == 0 && S_ISDIR(st.st_mode);
        if (dir) {
            DIR *d = opendir(paths[p]);
            for (struct dirent *e; d && (e = readdir(d));)
                if (program_file(e->d_name)) {
                    files = lower_realloc(files, (size_t)(nfiles + 1) * sizeof *files);
                    files[nfiles++] = lower_strdup(e->d_name);
                }
            if (d)
                closedir(d);
            qsort(files, (size_t)nfiles, sizeof *files, by_name);
            if (!nfiles) {
                char msg[4200];
                snprintf(msg, sizeof msg, "%s: error: no program files (*.py, *.dsl) in this directory\n",
                         paths[p]);
                add_error(&errs, &errlen, msg);
            }
        } else {
            files = lower_realloc(NULL, sizeof *files);
            files[nfiles++] = lower_strdup(paths[p]);
        }
        for (int f = 0; f < nfiles; f++) {
            char *path = files[f];
            if (dir) {
                size_t n = strlen(paths[p]) + strlen(files[f]) + 2;
                path = lower_realloc(NULL, n);
                snprintf(path, n, "%s/%s", paths[p], files[f]);
            }
            char *err = NULL;
            IrModule *m = strcmp(path, "-") == 0
                ? ir_load_string("<stdin>", stdin_text ? stdin_text : "", dialect, &err)
                : ir_load_file(path, dialect, &err);
            if (m) {
                if (dir)
                    name_by_file(m, files[f]);
                parts = lower_realloc(parts, (size_t)(nparts + 1) * sizeof *parts);
                parts[nparts++] = m;
            } else {
                add_error(&errs, &errlen, err ? err : "error\n");
            }
            free(err);
            if (path != files[f])
                free(path);
            free(files[f]);
        }
        free(files);
    }
    IrModule *all = NULL;
    if (!errs) {
        all = ir_merge(parts, nparts, &errs);   /* owns the parts, or freed them */
        parts = NULL;
        nparts = 0;
    }
    if (!all) {
        for (int i = 0; i < nparts; i++)
            ir_free(parts[i]);
        free(parts);
    }
    if (errmsg)
        *errmsg = errs;
    else
        free(errs);
    return all;
}

IrModule *ir_merge(IrModule **parts, int nparts, char **errmsg)
{
    char *errs = NULL;
    size_t errlen = 0, nprogs = 0;
    for (int i = 0; i < nparts; i++) {
        nprogs += (size_t)parts[i]->nprogs;
        if (parts[i]->dialect != parts[0]->dialect) {
            char msg[4200];
            snprintf(msg, sizeof msg, "%s: error: its programs are %s, %s's are %s: one run takes "
                     "one dialect\n", parts[i]->path,
                     parts[i]->dialect == DIALECT_TOKPIDJIN ? "tokpidjin's" : "arc-dsl's",
                     parts[0]->path, parts[0]->dialect == DIALECT_TOKPIDJIN ? "tokpidjin's" : "arc-dsl's");
            add_error(&errs, &errlen, msg);
        }
    }
    IrModule *m = lower_realloc(NULL, sizeof *m);
    memset(m, 0, sizeof *m);
    m->path = lower_strdup(nparts ? parts[0]->path : "");
    m->dialect = nparts ? parts[0]->dialect : DIALECT_ARCDSL;
    m->progs = lower_realloc(NULL, (nprogs ? nprogs : 1) * sizeof *m->progs);
    m->parts = parts;
    m->nparts = nparts;
    for (int i = 0; i < nparts; i++) {
        IrModule *p = parts[i];
        for (int k = 0; k < p->nprogs; k++) {
            const IrProgram *q = &p->progs[k];
            for (int j = 0; j < m->nprogs && !q->called; j++)
                if (!m->progs[j].called && strcmp(m->progs[j].name, q->name) == 0) {
                    char msg[4200];
                    snprintf(msg, sizeof msg, "%s:%d: error: program '%s' is also defined in "
                             "%s:%d: a run's programs need distinct names\n", q->file, q->line,
                             q->name, m->progs[j].file, m->progs[j].line);
                    add_error(&errs, &errlen, msg);
                    break;
                }
            m->progs[m->nprogs++] = *q;      /* a view: p owns it */
        }
        m->nstmts_total += p->nstmts_total;
        if (p->warnings)
            add_error(&m->warnings, &(size_t){m->warnings ? strlen(m->warnings) : 0}, p->warnings);
    }
    if (errs) {
        if (errmsg)
            *errmsg = errs;
        else
            free(errs);
        ir_free(m);
        return NULL;
    }
    return m;
}
