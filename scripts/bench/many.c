/* The readers and the floor writer of scripts/bench-many.
 *
 *   many read SECONDS RATE_HZ WARMUP_S PATH...   one open descriptor per device, one epoll
 *   many write RATE_HZ BYTES LINK...             the floor: plain PTYs written on the grid
 *   many write-asking-speed RATE_HZ BYTES LINK... the same, asking each PTY's speed first
 *
 * read: opens every PATH raw and non-blocking and waits on all of them with one epoll. Each
 * wake-up is stamped once with CLOCK_REALTIME before anything is read; the first read of a
 * device in each period of the UTC-aligned grid (a whole multiple of the period) starts an
 * epoch, whose lateness is how far after the grid instant it arrived. (Each epoch is counted in
 * the period it starts in, whatever its later writes do: a paced burst arrives in writes 40 ms
 * apart. An earlier rule, a read after a silence, locked on a device's second write for good
 * once one first write came late, and read every later epoch as 57 ms late.) An epoch later
 * than a whole period is counted in the next one, as early: the epochs counted show it. When allowed (root), the reader takes SCHED_FIFO priority 20 and locks its
 * memory, as scripts/bench/epoch_timing.py's reader does: at normal priority the reader's own
 * wake-ups add milliseconds of tail on these VMs, which would hide the writer's. After
 * WARMUP_S seconds it keeps these for the SECONDS x RATE whole periods of the grid that follow
 * and prints, per device, one line:
 * `PATH EPOCHS P50_US P99_US MAX_US LATENESS_US...` (the last, every epoch's lateness in
 * ascending order, so that the harness can pool the windows of several rounds). The readers of all devices are one process, so that they
 * cost as little as possible; their CPU is the harness's to report.
 *
 * write: opens one pseudo-terminal per LINK (the slave kept open, linked at LINK) and, at each
 * grid instant (clock_nanosleep on CLOCK_REALTIME, TIMER_ABSTIME), writes BYTES of NMEA-looking
 * text to every master with one write each, at SCHED_FIFO priority 10 when allowed (as
 * mockgps's scheduler thread). Ends on SIGTERM, removing its links. write-asking-speed calls
 * tcgetattr on each master before its write, as mockgps does to garble a client at another
 * speed than the chip's (`--baud-mismatch garble`, the default): the floor of that work.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static int64_t now_realtime(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int compare(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* SCHED_FIFO at `priority` when allowed; quietly nothing otherwise. */
static void raise_priority(int priority) {
  struct sched_param param = {.sched_priority = priority};
  (void)sched_setscheduler(0, SCHED_FIFO, &param);
}

struct device {
  const char *path;
  int fd;
  int64_t window; /* the grid period of the last read (t / period) */
  int64_t *lateness;
  size_t count, capacity;
};

static int reader(int argc, char **argv) {
  double seconds = atof(argv[2]), rate = atof(argv[3]), warmup = atof(argv[4]);
  int n = argc - 5;
  int64_t period = (int64_t)(1e9 / rate + 0.5);
  raise_priority(20);
  (void)mlockall(MCL_CURRENT | MCL_FUTURE);
  struct device *devices = calloc(n, sizeof *devices);
  int epoll = epoll_create1(0);
  for (int i = 0; i < n; i++) {
    devices[i].path = argv[5 + i];
    devices[i].fd = open(argv[5 + i], O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (devices[i].fd < 0) {
      fprintf(stderr, "many: %s: %s\n", argv[5 + i], strerror(errno));
      return 1;
    }
    struct termios t;
    if (tcgetattr(devices[i].fd, &t) == 0) {
      cfmakeraw(&t);
      tcsetattr(devices[i].fd, TCSANOW, &t);
    }
    devices[i].capacity = (size_t)(seconds * rate) + 64;
    devices[i].lateness = malloc(devices[i].capacity * sizeof(int64_t));
    struct epoll_event event = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
    epoll_ctl(epoll, EPOLL_CTL_ADD, devices[i].fd, &event);
  }
  /* The epochs kept are those of whole periods of the grid, SECONDS x RATE of them, from the
   * first period that starts after the warm-up: a device that sent every epoch shows exactly
   * that many, wherever in a period the reader started (a window of SECONDS from an instant
   * counted a period's epoch that began before it, and one more or less besides). */
  int64_t periods = (int64_t)(seconds * rate + 0.5);
  if (periods < 1) periods = 1;
  int64_t first = (now_realtime() + (int64_t)(warmup * 1e9)) / period + 1;
  int64_t end = (first + periods) * period;
  struct epoll_event events[256];
  char buffer[65536];
  for (;;) {
    int64_t t = now_realtime();
    if (t >= end) break;
    int ready = epoll_wait(epoll, events, 256, (int)((end - t) / 1000000) + 1);
    t = now_realtime();
    for (int k = 0; k < ready; k++) {
      struct device *d = &devices[events[k].data.u32];
      ssize_t got = read(d->fd, buffer, sizeof buffer);
      if (got <= 0) continue;
      while (read(d->fd, buffer, sizeof buffer) > 0) {
      }
      if (t / period != d->window) {
        d->window = t / period;
        /* The last wait may return after `end` (its timeout is rounded up to the millisecond):
         * an epoch of the period after the window is not kept (the first device's, which
         * arrives a fraction of a millisecond after the instant, was). */
        if (t / period >= first && t < end && d->count < d->capacity)
          d->lateness[d->count++] = t % period;
      }
    }
  }
  for (int i = 0; i < n; i++) {
    struct device *d = &devices[i];
    if (d->count == 0) {
      printf("%s 0 0 0 0\n", d->path);
      continue;
    }
    qsort(d->lateness, d->count, sizeof(int64_t), compare);
    size_t p50 = (d->count - 1) * 50 / 100, p99 = (d->count - 1) * 99 / 100;
    printf("%s %zu %lld %lld %lld", d->path, d->count, (long long)(d->lateness[p50] / 1000),
           (long long)(d->lateness[p99] / 1000), (long long)(d->lateness[d->count - 1] / 1000));
    for (size_t k = 0; k < d->count; k++) printf(" %lld", (long long)(d->lateness[k] / 1000));
    printf("\n");
  }
  return 0;
}

static volatile sig_atomic_t stopping = 0;
static void on_term(int signal) { (void)signal; stopping = 1; }

static int writer(int argc, char **argv) {
  int asks_speed = strcmp(argv[1], "write-asking-speed") == 0;
  double rate = atof(argv[2]);
  size_t bytes = (size_t)atol(argv[3]);
  int n = argc - 4;
  int64_t period = (int64_t)(1e9 / rate + 0.5);
  int *masters = calloc(n, sizeof(int));
  char *epoch = malloc(bytes);
  for (size_t i = 0; i < bytes; i++) epoch[i] = (i % 80 == 79) ? '\n' : (i % 80 == 0 ? '$' : 'A');
  for (int i = 0; i < n; i++) {
    int master, slave;
    char name[64];
    if (openpty(&master, &slave, name, NULL, NULL) != 0) return 1;
    struct termios t;
    tcgetattr(slave, &t);
    cfmakeraw(&t);
    tcsetattr(slave, TCSANOW, &t);
    fcntl(master, F_SETFL, O_NONBLOCK);
    masters[i] = master;
    unlink(argv[4 + i]);
    if (symlink(name, argv[4 + i]) != 0) return 1;
  }
  signal(SIGTERM, on_term);
  signal(SIGINT, on_term);
  raise_priority(10);
  printf("ready\n");
  fflush(stdout);
  int64_t next = (now_realtime() / period + 1) * period;
  while (!stopping) {
    struct timespec at = {.tv_sec = next / 1000000000, .tv_nsec = next % 1000000000};
    if (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &at, NULL) != 0) continue;
    for (int i = 0; i < n; i++) {
      /* A UART's emulation asks the client's speed before each write (mockgps's garbling of a
       * mismatched speed, its default): the machine's cost of that, without the rest. */
      struct termios speed;
      if (asks_speed) (void)tcgetattr(masters[i], &speed);
      (void)!write(masters[i], epoch, bytes);
    }
    next += period;
  }
  for (int i = 0; i < n; i++) unlink(argv[4 + i]);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 5 && strcmp(argv[1], "read") == 0) return reader(argc, argv);
  if (argc > 4 && (strcmp(argv[1], "write") == 0 || strcmp(argv[1], "write-asking-speed") == 0))
    return writer(argc, argv);
  fprintf(stderr, "usage: many read SECONDS RATE WARMUP PATH... | "
                  "many write|write-asking-speed RATE BYTES LINK...\n");
  return 64;
}
