/* pngout.c -- PNG files through libpng (pngout.h). */
#include "config.h"
#include "pngout.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#ifdef HAVE_LIBPNG
#include <png.h>

bool png_available(void) { return true; }

int png_write(const char *path, const uint8_t *rgb, size_t w, size_t h, char *err, size_t errlen)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        remove(path);
        snprintf(err, errlen, "%s: libpng could not write it", path);
        return -1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (size_t y = 0; y < h; y++)
        png_write_row(png, (png_const_bytep)(rgb + y * w * 3));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    if (fclose(f) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

#else

bool png_available(void) { return false; }

int png_write(const char *path, const uint8_t *rgb, size_t w, size_t h, char *err, size_t errlen)
{
    (void)rgb, (void)w, (void)h;
    snprintf(err, errlen, "%s: this arcrun was built without libpng", path);
    return -1;
}

#endif
