/* A plain iterative depth-first search in C, the reference bench/bench_peers.py times our
 * compiled backtracker against (built there with the system compiler, `cc -O2`).
 *
 *   backtracker SIDE RUNS SEED
 *
 * prints two lines, each the median milliseconds of RUNS runs on a SIDE x SIDE grid, timed inside
 * the program by the thread's CPU clock (a busy machine's other work is not counted): "carve MS" (a byte per cell for visits, a byte per cell for the direction back to
 * its parent: the maze as a tree) and "plan MS" (the same walk writing the 2n+1 block plan, 1 =
 * wall, 0 = air, as it goes). One xorshift draw per step that has a choice among the unvisited
 * neighbours; an int32 stack of the cells that had a choice. Exits 1 if a maze is not perfect. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t state;

static uint32_t draw(uint32_t m) { /* a uniform-enough pick in [0, m), xorshift64 */
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (uint32_t)(((state >> 32) * m) >> 32);
}

static const int DR[4] = {-1, 0, 1, 0}, DC[4] = {0, 1, 0, -1}; /* north east south west */

/* One maze: with plan NULL, back[cell] gets the direction to the parent (4 at the root); with a
 * plan, the cells and the walls between them turn to air. Returns the number of steps taken. */
static long carve(int side, uint8_t *visited, uint8_t *back, int32_t *stack, uint8_t *plan) {
    long cells = (long)side * side, steps = 0;
    int width = 2 * side + 1, top = -1;
    memset(visited, 0, (size_t)cells);
    if (plan) memset(plan, 1, (size_t)width * width);
    int32_t cell = (int32_t)draw((uint32_t)cells);
    visited[cell] = 1;
    if (plan) plan[(2 * (cell / side) + 1) * width + 2 * (cell % side) + 1] = 0;
    else back[cell] = 4;
    for (;;) {
        int r = cell / side, c = cell % side, open[4], count = 0;
        for (int d = 0; d < 4; d++) {
            int rr = r + DR[d], cc = c + DC[d];
            if (rr >= 0 && rr < side && cc >= 0 && cc < side && !visited[rr * side + cc]) open[count++] = d;
        }
        if (count == 0) {
            if (top < 0) break;
            cell = stack[top--];
            continue;
        }
        int d = open[count > 1 ? draw((uint32_t)count) : 0];
        if (count > 1) stack[++top] = cell;
        int32_t next = cell + DR[d] * side + DC[d];
        visited[next] = 1;
        if (plan) {
            plan[(2 * r + 1 + DR[d]) * width + 2 * c + 1 + DC[d]] = 0;
            plan[(2 * r + 1 + 2 * DR[d]) * width + 2 * c + 1 + 2 * DC[d]] = 0;
        } else {
            back[next] = (uint8_t)((d + 2) & 3);
        }
        cell = next;
        steps++;
    }
    return steps;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: backtracker SIDE RUNS SEED\n");
        return 2;
    }
    int side = atoi(argv[1]), runs = atoi(argv[2]);
    state = strtoull(argv[3], NULL, 10) * 2654435761u + 88172645463325252ull;
    long cells = (long)side * side, width = 2L * side + 1;
    uint8_t *visited = malloc((size_t)cells), *back = malloc((size_t)cells);
    uint8_t *plan = malloc((size_t)(width * width));
    int32_t *stack = malloc(sizeof(int32_t) * (size_t)cells);
    double *times = malloc(sizeof(double) * (size_t)runs);
    if (!visited || !back || !plan || !stack || !times || runs < 1 || side < 1) return 2;
    for (int with_plan = 0; with_plan < 2; with_plan++) {
        carve(side, visited, back, stack, with_plan ? plan : NULL); /* warm-up: pages touched */
        for (int i = 0; i < runs; i++) {
            double start = now_ms();
            long steps = carve(side, visited, back, stack, with_plan ? plan : NULL);
            times[i] = now_ms() - start;
            if (steps != cells - 1) return 1; /* a spanning tree opens cells - 1 passages */
        }
        qsort(times, (size_t)runs, sizeof(double), by_value);
        printf("%s %.3f\n", with_plan ? "plan" : "carve", times[runs / 2]);
    }
    if (plan[width + 1] != 0) return 1;
    return 0;
}
