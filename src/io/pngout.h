/* pngout.h -- an RGB image written as a PNG file (libpng; png_available()
 * says whether this build has it). */
#ifndef ARC_PNGOUT_H
#define ARC_PNGOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

bool png_available(void);
/* rgb: h rows of w pixels, 3 bytes each.  0, or -1 with a message in err. */
int png_write(const char *path, const uint8_t *rgb, size_t w, size_t h, char *err, size_t errlen);

#endif
