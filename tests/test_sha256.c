/* test_sha256.c -- TAP tests of src/io/sha256.c against digests made by
 * Python's hashlib: the lengths around the padding's block boundaries and
 * a long run of blocks, each fed whole and in uneven pieces, by the CPU's
 * SHA extensions where it has them and by the portable code. */
#include "tap_c.h"
#include "sha256.h"

#include <string.h>

static const struct { size_t n; const char *hex; } vectors[] = {
    {0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    {3, "6ab0dba1f4f1dfbb37b4f9eeb092c09fca4900ad32bdcd147d8dde35d6c87c35"},
    {55, "1deace58c745f3ecadde68a5923f494c3703fa73f0306483ccb898a5826e8d70"},
    {56, "06dbe23685750e4d3881ded95047abaf93fa8f9c5d3501dc57c717a72ff1398e"},
    {63, "47fb38b12335c9298d09280515c0666489a189d1554bb0ac1a0740806ce9d8b6"},
    {64, "dfa798724b1a8014994f363e5da7474ed26ce3757fb29e07aa47ad5a9352d37b"},
    {65, "dd2eab5a5507d7717c63ce953d9ac61752c21e664425ad1227054722a0d97f69"},
    {119, "c6e0f435df5d7d265baacca31e0602c00aa22fa6d3819aed664649294c743756"},
    {120, "17eb8960823a644bde3065620bb9d45931fe8993fd8eb692a17aff0fd725db6a"},
    {1000, "a9425c416f534025a4e2422bd14adba4ec3d4a68d10c3329be8df612964d2b6e"},
    {100000, "5889ab642baa09c41570b8888cbf45f3762152cea2490ea6b150208a99c92b10"},
};

static unsigned char data[100000];

static void digests(const char *how)
{
    for (size_t k = 0; k < sizeof vectors / sizeof *vectors; k++) {
        size_t n = vectors[k].n;
        char whole[65], pieces[65];
        Sha256 s;
        sha256_init(&s);
        sha256_update(&s, data, n);
        sha256_hex(&s, whole);
        sha256_init(&s);
        for (size_t at = 0, step = 1; at < n; at += step, step = step * 3 % 17 + 1)
            sha256_update(&s, data + at, step < n - at ? step : n - at);
        sha256_hex(&s, pieces);
        ok(strcmp(whole, vectors[k].hex) == 0 && strcmp(pieces, vectors[k].hex) == 0,
           "%s: %zu bytes, whole and in pieces: hashlib's digest", how, n);
    }
}

int main(void)
{
    for (size_t i = 0; i < sizeof data; i++)    /* bytes((i * 7 + 3) % 251 for i in range(n)) */
        data[i] = (unsigned char)((i * 7 + 3) % 251);
    if (sha256_hw())
        digests("SHA extensions");
    else
        printf("# this CPU has no SHA extensions: the portable code only\n");
    sha256_portable();
    ok(!sha256_hw(), "sha256_portable() turns the extensions off");
    digests("portable");
    printf("1..%d\n", ntest);
    return nfail != 0;
}
