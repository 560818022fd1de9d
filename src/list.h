/* list.h -- `arcrun list [PATTERN]`: a dialect's primitives, each with its
 * signature and what it computes. */
#ifndef ARC_LIST_H
#define ARC_LIST_H

/* argv[0] is "list"; returns the exit status. */
int cmd_list(int argc, char **argv);

#endif
