/* fuzz_program.c -- libFuzzer target: parse and lower any text as a program.
 * Bad programs must come back as a located message, never a crash. */
#include "ir.h"
#include "fuzz_text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *src = fuzz_text(data, size);
    char *err = NULL;
    IrModule *m = ir_load_string("fuzz.py", src, -1, &err);
    if (m)
        ir_free(m);
    else if (!err || !strstr(err, "fuzz.py:"))
        abort();              /* a rejected program must say where */
    free(err);
    free(src);
    return 0;
}
