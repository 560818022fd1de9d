# dsl: the primitive tables and the primitives of both dialects, with what
# they share in dsl/common.  Sees core and itself.
noinst_LIBRARIES += dsl/libdsl.a
dsl_libdsl_a_CPPFLAGS = $(DSL_CPPFLAGS)
dsl_libdsl_a_SOURCES = \
	dsl/prim.h dsl/prim.c \
	dsl/common/core_util.h dsl/common/grid_util.h dsl/common/mgrid.h dsl/common/colours.h \
	dsl/common/neighbours.h dsl/common/neighbours.c \
	dsl/common/iset.h dsl/common/objwalk.h dsl/common/objwalk_int.h dsl/common/objwalk.c \
	dsl/common/objlazy.c \
	dsl/common/anyorder.h dsl/common/anyorder.c \
	dsl/common/cells.h dsl/common/partition.c dsl/common/frontiers.c \
	dsl/common/period.c dsl/common/occurrences.c dsl/common/closures.h dsl/common/closures.c \
	dsl/common/flatcall.h dsl/common/flatcall.c dsl/common/mshift.h dsl/common/mshift.c \
	dsl/common/gridops.h dsl/common/recolor.c dsl/common/corners.c dsl/common/compress.c \
	dsl/common/colorfilter.c dsl/common/connect.c dsl/common/mirror.c dsl/common/upscale.c \
	dsl/common/manhattan.h dsl/common/manhattan.c dsl/common/counts.h dsl/common/counts.c \
	dsl/common/rings.h dsl/common/rings.c dsl/common/binop.h dsl/common/binop.c \
	dsl/arcdsl/list.h dsl/rearc/list.h dsl/arcdsl/doc.h dsl/tokpidjin/doc.h dsl/rearc/doc.h \
	dsl/arcdsl/numeric.c dsl/arcdsl/container.c dsl/arcdsl/functional.c dsl/arcdsl/apply.c dsl/arcdsl/paths.h \
	dsl/arcdsl/patch_util.h dsl/arcdsl/patch.c dsl/arcdsl/relations.c dsl/arcdsl/shapes.c dsl/arcdsl/connects.c dsl/arcdsl/pairfork.c dsl/arcdsl/fitfilter.h dsl/arcdsl/fitfilter.c dsl/arcdsl/line.h dsl/arcdsl/grid_util.h dsl/arcdsl/grid.c dsl/arcdsl/scale.c dsl/arcdsl/join.c dsl/arcdsl/objects.c \
	dsl/tokpidjin/list.h dsl/tokpidjin/consts.h \
	dsl/tokpidjin/core_util.h dsl/tokpidjin/patch_util.h dsl/tokpidjin/grid_util.h \
	dsl/tokpidjin/core.c dsl/tokpidjin/arith.c dsl/tokpidjin/patch.c dsl/tokpidjin/boxes.c dsl/tokpidjin/relations.c dsl/tokpidjin/grid.c dsl/tokpidjin/scale.c dsl/tokpidjin/objects.c dsl/tokpidjin/compress.c dsl/tokpidjin/compose.c
EXTRA_DIST += dsl/tokpidjin/gen_list.py dsl/tokpidjin/gen_consts.py dsl/tokpidjin/check_corpus.py
