# src/front: the parser's AST (grammar/ builds into this library), imports,
# lowering to IR.  Sees core, dsl and itself.
noinst_LIBRARIES += src/front/libfront.a
src_front_libfront_a_CPPFLAGS = $(FRONT_CPPFLAGS)
nodist_src_front_libfront_a_SOURCES = grammar/parser.c grammar/lexer.c
src_front_libfront_a_SOURCES = \
	src/front/ast.h src/front/ast.c src/front/ir.h \
	src/front/lower.h src/front/lower.c src/front/lower_expr.c src/front/lower_stmt.c \
	src/front/lower_eval.c src/front/calldef.c src/front/modset.c src/front/pyeval.h src/front/pyeval.c src/front/pyops.c src/front/pykeywords.c src/front/pybuiltins.c \
	src/front/imports.h src/front/imports.c src/front/missing.c \
	src/front/setdisplay.h src/front/setdisplay.c
