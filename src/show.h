/* show.h -- `arcrun show TASKS [PROGRAM...]`: a task's grids, and the
 * programs' outputs beside the expected ones. */
#ifndef ARC_SHOW_H
#define ARC_SHOW_H

/* argv[0] is "show"; returns the exit status. */
int cmd_show(int argc, char **argv);

#endif
