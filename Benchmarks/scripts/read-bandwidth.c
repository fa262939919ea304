// The memory read bandwidth a decode step can reach: THREADS threads sum their shares of a buffer
// far larger than the caches, as a matrix product streams its weights; the best of ROUNDS passes
// in GB/s. Build: cc -O2 -march=native -pthread read-bandwidth.c -o read-bandwidth
//
// usage: read-bandwidth THREADS [MEGABYTES (2048)] [ROUNDS (5)]
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    const uint64_t *start;
    size_t count;
    uint64_t sum;
} Share;

static void *sum_share(void *argument) {
    Share *share = argument;
    uint64_t a = 0, b = 0, c = 0, d = 0;
    for (size_t i = 0; i + 4 <= share->count; i += 4) {
        a += share->start[i];
        b += share->start[i + 1];
        c += share->start[i + 2];
        d += share->start[i + 3];
    }
    share->sum = a + b + c + d;
    return NULL;
}

static double now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: read-bandwidth THREADS [MEGABYTES] [ROUNDS]\n");
        return 1;
    }
    int threads = atoi(argv[1]);
    size_t megabytes = argc > 2 ? (size_t)atol(argv[2]) : 2048;
    int rounds = argc > 3 ? atoi(argv[3]) : 5;
    if (threads < 1 || threads > 256 || megabytes < 64 || rounds < 1) return 1;
    size_t count = megabytes * (1 << 20) / sizeof(uint64_t);
    uint64_t *buffer = malloc(count * sizeof(uint64_t));
    if (buffer == NULL) return 1;
    memset(buffer, 1, count * sizeof(uint64_t));
    pthread_t workers[256];
    Share shares[256];
    double best = 0;
    uint64_t total = 0;
    for (int round = 0; round < rounds; round++) {
        double start = now();
        for (int t = 0; t < threads; t++) {
            shares[t] = (Share){buffer + count * t / threads, count / threads, 0};
            pthread_create(&workers[t], NULL, sum_share, &shares[t]);
        }
        for (int t = 0; t < threads; t++) {
            pthread_join(workers[t], NULL);
            total += shares[t].sum;
        }
        double rate = (double)(count * sizeof(uint64_t)) / (now() - start) / 1e9;
        if (rate > best) best = rate;
    }
    printf("%.2f\n", best);
    fprintf(stderr, "read bandwidth, %d threads: %.2f GB/s (checksum %llu)\n", threads, best, (unsigned long long)total);
    free(buffer);
    return 0;
}
