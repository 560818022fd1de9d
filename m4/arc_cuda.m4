# ARC_CHECK_CUDA: --with-cuda[=DIR|yes|no]; default: use it when nvcc is
# found on PATH or in /usr/local/cuda.  Sets NVCC, CUDA_LIBS, CUDA_CXXRT
# and CUDA_CXXRT_SHARED, NVCCFLAGS and the HAVE_CUDA conditional/define.
AC_DEFUN([ARC_CHECK_CUDA], [
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda@<:@=DIR@:>@],
      [build the CUDA backend (default: auto-detect nvcc on PATH or in /usr/local/cuda)])],
    [], [with_cuda=auto])
  AC_ARG_VAR([NVCC], [CUDA compiler])
  AC_ARG_VAR([NVCCFLAGS], [flags for nvcc (default: -O2 and the GPU architectures)])
  AC_ARG_VAR([CUDA_ARCH], [nvcc -gencode list (default: sm_80,sm_90 and PTX)])
  arc_cuda=no
  arc_cuda_summary="no (CPU only)"
  AS_CASE([$with_cuda],
    [no], [],
    [yes|auto], [
      AS_IF([test -z "$NVCC"], [AC_PATH_PROG([NVCC], [nvcc], [], [$PATH:/usr/local/cuda/bin])])
    ],
    [AS_IF([test -z "$NVCC"], [AC_PATH_PROG([NVCC], [nvcc], [], [$with_cuda/bin])])])
  AS_IF([test "x$with_cuda" != xno && test -n "$NVCC"], [
    cuda_home=`dirname "$NVCC"`
    cuda_home=`dirname "$cuda_home"`
    AS_IF([test -f "$cuda_home/lib64/libcudart_static.a"],
      [cuda_libdir="$cuda_home/lib64"],
      [cuda_libdir="$cuda_home/lib"])
    AS_IF([test -f "$cuda_libdir/libcudart_static.a"], [
      arc_cuda=yes
      CUDA_LIBS="-L$cuda_libdir -lcudart_static -ldl -lrt -lpthread"
      # cudart is C++: programs link its runtime in where the archive is
      # there, and start without loading libstdc++.so (a run of arcrun is
      # often a short one); the Python extension, a shared object, links
      # the shared one
      CUDA_CXXRT_SHARED=-lstdc++
      CUDA_CXXRT=-lstdc++
      arc_stdcxx_a=`$CC -print-file-name=libstdc++.a 2>/dev/null`
      AS_IF([test -f "$arc_stdcxx_a"], [CUDA_CXXRT=-l:libstdc++.a])
      AS_IF([test -z "$CUDA_ARCH"],
        [CUDA_ARCH="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90"])
      AS_IF([test -z "$NVCCFLAGS"], [NVCCFLAGS="-O2"])
      arc_cuda_nvcc_version=`"$NVCC" --version | sed -n 's/.*release \(@<:@0-9.@:>@*\).*/\1/p'`
      arc_cuda_summary="yes (nvcc $arc_cuda_nvcc_version, $NVCC)"
      AC_DEFINE_UNQUOTED([ARC_NVCC_VERSION], ["$arc_cuda_nvcc_version"], [nvcc release])
      AC_DEFINE([HAVE_CUDA], [1], [Define to build the CUDA backend])
    ], [AC_MSG_WARN([nvcc found but no libcudart_static.a next to it])])
  ])
  AS_IF([test "x$with_cuda" = xyes && test "x$arc_cuda" != xyes],
    [AC_MSG_ERROR([--with-cuda given but no usable CUDA toolkit found])])
  AC_SUBST([CUDA_LIBS])
  AC_SUBST([CUDA_CXXRT])
  AC_SUBST([CUDA_CXXRT_SHARED])
  AC_SUBST([CUDA_ARCH])
  AM_CONDITIONAL([HAVE_CUDA], [test "x$arc_cuda" = xyes])
])

# ARC_ENABLE_SANITIZERS: --enable-sanitizers adds ASan and UBSan.
AC_DEFUN([ARC_ENABLE_SANITIZERS], [
  AC_ARG_ENABLE([sanitizers],
    [AS_HELP_STRING([--enable-sanitizers], [build with AddressSanitizer and UndefinedBehaviorSanitizer])],
    [], [enable_sanitizers=no])
  AS_IF([test "x$enable_sanitizers" = xyes], [
    SAN_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
    CFLAGS="$CFLAGS $SAN_FLAGS"
    LDFLAGS="$LDFLAGS $SAN_FLAGS"
    AC_DEFINE([ARC_NO_POOL], [1], [Allocate values with malloc so sanitizers see every block])
  ])
])

# ARC_ENABLE_FUZZING: --enable-fuzzing builds the libFuzzer targets of
# tests/fuzz (clang only) with ASan and UBSan; the library is instrumented
# for coverage and allocates with malloc so ASan sees every block.
AC_DEFUN([ARC_ENABLE_FUZZING], [
  AC_ARG_ENABLE([fuzzing],
    [AS_HELP_STRING([--enable-fuzzing], [build the libFuzzer targets in tests/fuzz (needs CC=clang)])],
    [], [enable_fuzzing=no])
  AS_IF([test "x$enable_fuzzing" = xyes], [
    FUZZ_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
    arc_save_CFLAGS=$CFLAGS
    CFLAGS="$CFLAGS -fsanitize=fuzzer"
    AC_MSG_CHECKING([whether $CC links libFuzzer targets])
    AC_LINK_IFELSE([AC_LANG_SOURCE([[
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }
]])], [AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no])
       AC_MSG_ERROR([--enable-fuzzing needs a compiler with libFuzzer: ./configure --enable-fuzzing CC=clang (apt-get install clang)])])
    CFLAGS="$arc_save_CFLAGS $FUZZ_FLAGS"
    LDFLAGS="$LDFLAGS -fsanitize=address,undefined"
    AC_DEFINE([ARC_NO_POOL], [1], [Allocate values with malloc so sanitizers see every block])
  ])
  AM_CONDITIONAL([FUZZING], [test "x$enable_fuzzing" = xyes])
])
