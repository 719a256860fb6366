/* spawn_measure RESULT_FILE PROGRAM [ARGS...]
 *
 * Runs PROGRAM (stdin/stdout/stderr inherited), waits for it with wait4, and writes
 * "<wall seconds> <ru_maxrss KiB> <exit status>" to RESULT_FILE. Used by scripts/compare_ffprobe.py:
 * Linux carries ru_maxrss across exec, so a child forked from Python would report Python's own ~13 MiB
 * as its floor; forked from this small C process the floor is about 1 MiB (that of /bin/true). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: spawn_measure RESULT_FILE PROGRAM [ARGS...]\n");
        return 64;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); return 71; }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror("exec");
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) { perror("wait4"); return 71; }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double wall = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) * 1e-9;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    FILE *out = fopen(argv[1], "w");
    if (!out) { perror("fopen"); return 73; }
    fprintf(out, "%.6f %ld %d\n", wall, usage.ru_maxrss, code);
    fclose(out);
    return 0;
}
