/* dsl/rearc/doc.h -- what `arcrun list --dialect=re-arc` prints for the
 * rows of dsl/rearc/list.h: DOC(name, signature, description), in its order. */
DOC(argmax, "(container: Container, compfunc: Callable) -> Any", "the item with the largest compfunc value; None when empty (re-arc)")
DOC(argmin, "(container: Container, compfunc: Callable) -> Any", "the item with the smallest compfunc value; None when empty (re-arc)")
DOC(occurrences, "(grid: Grid, obj: Object) -> Indices", "where obj appears in grid, every cell tried as its corner (re-arc)")
