"""The C extension arcrun._arcrun, built by the project's Autotools build.

The sources are listed once, in the Makefile.am files: this configures a
copy of the tree with -fPIC in the build directory, runs `make pylibs`
there, and links the extension against the libraries it made (the link
line comes from `make print-pylink`).  Needs what the CLI needs:
autoconf, automake, bison, flex, libcjson-dev (libpng-dev and nvcc when
present, as for the CLI).
"""
import os
import shlex
import shutil
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
# what a configured or built tree holds that a fresh configure must not see
SKIP = shutil.ignore_patterns('.git', 'build', 'dist', '*.egg-info', 'autom4te.cache', '*.o', '*.a',
                              'config.status', 'config.log', 'config.h', 'stamp-h1', 'arcrun',
                              '*.log', '*.trs', 'test-suite.log', 'arcrun-*', '.deps', 'Makefile',
                              '__pycache__', '*.so')


# a make that runs this (make check) leaves its flags in the environment:
# the inner make would then print "Entering directory" into the link line
ENV = {k: v for k, v in os.environ.items() if k not in ('MAKEFLAGS', 'MFLAGS', 'MAKELEVEL')}


def run(cmd, cwd):
    print('arcrun build:', ' '.join(cmd), flush=True)
    subprocess.run(cmd, cwd=cwd, check=True, env=ENV)


def out(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, text=True,
                          env=ENV).stdout.strip()


class AutotoolsExt(build_ext):
    def build_extension(self, ext):
        tree = os.path.abspath(os.path.join(self.build_temp, 'arcrun-tree'))
        # the copy keeps the sources' times: make rebuilds what changed since
        shutil.copytree(HERE, tree, ignore=SKIP, symlinks=True, dirs_exist_ok=True)
        if not os.path.exists(os.path.join(tree, 'config.status')):
            if not os.path.exists(os.path.join(tree, 'configure')):
                run(['autoreconf', '-fi'], tree)
            nvcc = os.environ.get('NVCCFLAGS', '-O2') + ' -Xcompiler -fPIC'
            run(['./configure', 'CFLAGS=-O2 -fPIC', 'NVCCFLAGS=' + nvcc] +
                shlex.split(os.environ.get('ARCRUN_CONFIGURE', '')), tree)
        run(['make', '-j%d' % (os.cpu_count() or 1), 'pylibs'], tree)
        link = shlex.split(out(['make', '-s', '--no-print-directory', 'print-pylink'], tree))
        inc = shlex.split(out(['make', '-s', '--no-print-directory', 'print-pyinc'], tree))
        # relative -I paths name the configured tree
        inc = ['-I' + os.path.join(tree, a[2:]) if a.startswith('-I') and not a.startswith('-I/') else a
               for a in inc]
        ext.extra_compile_args = ['-std=c11'] + inc
        ext.include_dirs = [tree]
        objs = [os.path.join(tree, a) for a in link if a.endswith(('.a', '.o'))]
        ext.extra_objects = objs
        ext.extra_link_args = [a for a in link if not a.endswith(('.a', '.o'))]
        super().build_extension(ext)


setup(ext_modules=[Extension('arcrun._arcrun', sources=['python/arcrun/_arcrun.c'])],
      cmdclass={'build_ext': AutotoolsExt})
