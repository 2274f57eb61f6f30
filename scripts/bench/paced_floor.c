/*
 * The paced floor of the cadence benchmark: the least a writer can do to send epochs paced at a
 * baud as mockgps sends them, one write a sentence, each when a UART would start sending its
 * first byte (the first at the epoch's instant, the next when the line has carried the one
 * before: ten bits a byte).
 *
 *   paced_floor RATE BAUD LOG LINK [STATS.json]
 *
 * Takes the first whole epoch (RMC to the next RMC) of LOG, a capture of mockgps's sentences,
 * opens a pseudo-terminal and links LINK to its slave. For each epoch it writes the time fields
 * (RMC, GGA, GNS, ZDA, GLL) anew with the epoch's UTC time and the checksums, then for each
 * sentence sleeps with clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME) until its start on the line
 * and writes it with one write() to the master. Run as root, it takes SCHED_FIFO priority 10, as
 * mockgps's threads do. Ends on SIGTERM, and then writes to STATS.json, if given, the number of
 * writes and the CPU seconds it used. Nothing but libc.
 */
#define _GNU_SOURCE
#include <pty.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

enum { MAX_LINES = 64, MAX_LINE = 128 };

static char lines[MAX_LINES][MAX_LINE];
static int line_count;
static long writes;
static const char *stats_path;

static void finish(int signal_number) {
  (void)signal_number;
  if (stats_path) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    FILE *file = fopen(stats_path, "w");
    if (file) {
      fprintf(file, "{\"writes\": %ld, \"cpu_seconds\": %.6f}\n", writes,
              usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
                  (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6);
      fclose(file);
    }
  }
  _exit(0);
}

/* The sentence type of a line: "RMC" of "$GPRMC,...". */
static int is_type(const char *line, const char *type) { return strncmp(line + 3, type, 3) == 0; }

/* Reads the first whole epoch of LOG into `lines`, without checksums or line ends. */
static void read_epoch(const char *log) {
  FILE *file = fopen(log, "r");
  if (!file) {
    perror(log);
    exit(1);
  }
  char buffer[512];
  int started = 0;
  while (fgets(buffer, sizeof buffer, file)) {
    if (buffer[0] != '$') continue;
    if (is_type(buffer, "RMC")) {
      if (started) break;
      started = 1;
    }
    if (!started || line_count == MAX_LINES) continue;
    buffer[strcspn(buffer, "*\r\n")] = 0;
    if (strlen(buffer) >= MAX_LINE) {
      fprintf(stderr, "paced_floor: %s: a sentence of more than %d bytes\n", log, MAX_LINE - 1);
      exit(1);
    }
    memcpy(lines[line_count++], buffer, strlen(buffer) + 1);
  }
  fclose(file);
  if (line_count == 0) {
    fprintf(stderr, "paced_floor: %s: no epoch from RMC to RMC\n", log);
    exit(1);
  }
}

/* The line with its time field set to `stamp`, its checksum and CR LF, into `out`. */
static int render(const char *line, const char *stamp, char *out) {
  int time_field = is_type(line, "GLL") ? 5
                   : (is_type(line, "RMC") || is_type(line, "GGA") || is_type(line, "GNS") ||
                      is_type(line, "ZDA"))
                       ? 1
                       : -1;
  int length = 0, field = 0;
  for (const char *p = line; *p; p++) {
    if (field == time_field && *p != ',') continue;
    out[length++] = *p;
    if (*p == ',' && ++field == time_field) length += sprintf(out + length, "%s", stamp);
  }
  unsigned checksum = 0;
  for (int i = 1; i < length; i++) checksum ^= (unsigned char)out[i];
  return length + sprintf(out + length, "*%02X\r\n", checksum);
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: paced_floor RATE BAUD LOG LINK [STATS.json]\n");
    return 2;
  }
  double rate = atof(argv[1]);
  long bytes_per_second = atol(argv[2]) / 10;
  stats_path = argc > 5 ? argv[5] : NULL;
  read_epoch(argv[3]);
  struct sched_param priority = {.sched_priority = 10};
  if (sched_setscheduler(0, SCHED_FIFO, &priority) == 0) mlockall(MCL_CURRENT | MCL_FUTURE);
  int master, slave;
  if (openpty(&master, &slave, NULL, NULL, NULL) != 0) {
    perror("openpty");
    return 1;
  }
  struct termios raw;
  tcgetattr(slave, &raw);
  cfmakeraw(&raw);
  tcsetattr(slave, TCSANOW, &raw); /* the slave stays open: no EIO between readers */
  unlink(argv[4]);
  if (symlink(ttyname(slave), argv[4]) != 0) {
    perror(argv[4]);
    return 1;
  }
  signal(SIGTERM, finish);
  long long period = (long long)(1e9 / rate + 0.5);
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  long long deadline = ((now.tv_sec * 1000000000LL + now.tv_nsec) / period + 2) * period;
  static char epoch[MAX_LINES][MAX_LINE + 16];
  static int lengths[MAX_LINES];
  for (;;) {
    long long centiseconds = deadline / 10000000 % 8640000;
    char stamp[16];
    snprintf(stamp, sizeof stamp, "%02lld%02lld%02lld.%02lld", centiseconds / 360000,
             centiseconds / 6000 % 60, centiseconds / 100 % 60, centiseconds % 100);
    for (int i = 0; i < line_count; i++) lengths[i] = render(lines[i], stamp, epoch[i]);
    long long start = deadline, sent = 0;
    for (int i = 0; i < line_count; i++) {
      long long at = start + sent * 1000000000LL / bytes_per_second;
      struct timespec request = {.tv_sec = at / 1000000000, .tv_nsec = at % 1000000000};
      while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &request, NULL) != 0) {
      }
      if (write(master, epoch[i], lengths[i]) > 0) writes++;
      sent += lengths[i];
    }
    deadline += period;
    clock_gettime(CLOCK_REALTIME, &now);
    long long current = now.tv_sec * 1000000000LL + now.tv_nsec;
    if (deadline <= current) deadline = (current / period + 1) * period;
  }
}
