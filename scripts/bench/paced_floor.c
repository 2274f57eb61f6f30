/*
 * The paced floor of the cadence benchmark: the least a writer can do to send epochs paced at a
 * baud as mockgps sends them, one write a sentence, each when a UART would start sending its
 * first byte (the first at the epoch's instant, the next when the line has carried the one
 * before: ten bits a byte).
 *
 *   paced_floor [--asking-speed] RATE BAUD LOG LINK [STATS.json]
 *
 * Takes the first whole epoch (RMC to the next RMC) of LOG, a capture of mockgps's sentences,
 * opens a pseudo-terminal and links LINK to its slave. For each epoch it writes the time fields
 * (RMC, GGA, GNS, ZDA, GLL) anew with the epoch's UTC time and the checksums, then for each
 * sentence sleeps with clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME) until its start on the line
 * and writes it with one write() to the master. With --asking-speed it asks the terminal's speed
 * (tcgetattr on the master) before each write, as mockgps does to garble a client at another
 * speed than the chip's. Run as root, it takes SCHED_FIFO priority 10, as mockgps's threads do.
 * Ends on SIGTERM, removing LINK, and then writes to STATS.json, if given, the number of writes.
 *
 * mockgps writes a line alone when it takes more than 40 ms of line time with the one after,
 * which every sentence of an epoch does up to 19200 baud: BAUD is refused above that, where
 * mockgps joins sentences into one write. Nothing but libc.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pty.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

enum { MAX_LINES = 64, MAX_LINE = 128 };

static char lines[MAX_LINES][MAX_LINE];
static int line_count;
static volatile sig_atomic_t stopping;

static void on_term(int signal_number) {
  (void)signal_number;
  stopping = 1;
}

static void fail(const char *log, const char *message) {
  fprintf(stderr, "paced_floor: %s: %s\n", log, message);
  exit(1);
}

/* Whether the line is a sentence of type `type`: "$GPRMC,...". */
static int is_type(const char *line, const char *type) {
  return strlen(line) >= 7 && line[6] == ',' && strncmp(line + 3, type, 3) == 0;
}

/* Whether the line (with its checksum, without its line end) is "$...*HH" with HH right. */
static int checksum_is_right(const char *line) {
  const char *star = strrchr(line, '*');
  if (line[0] != '$' || !star || strlen(star) != 3) return 0;
  unsigned checksum = 0;
  for (const char *p = line + 1; p < star; p++) checksum ^= (unsigned char)*p;
  char expected[3];
  snprintf(expected, sizeof expected, "%02X", checksum);
  return strncmp(star + 1, expected, 2) == 0;
}

/* Reads the first whole epoch of LOG into `lines`, without checksums or line ends: the
 * sentences from the first RMC to the next one; lines that are not whole sentences with a right
 * checksum are skipped. */
static void read_epoch(const char *log) {
  FILE *file = fopen(log, "r");
  if (!file) {
    perror(log);
    exit(1);
  }
  char buffer[512];
  int started = 0, ended = 0;
  while (fgets(buffer, sizeof buffer, file)) {
    buffer[strcspn(buffer, "\r\n")] = 0;
    if (!checksum_is_right(buffer)) continue;
    if (is_type(buffer, "RMC")) {
      if (started) {
        ended = 1;
        break;
      }
      started = 1;
    }
    if (!started) continue;
    if (line_count == MAX_LINES) fail(log, "an epoch of more than 64 sentences");
    *strrchr(buffer, '*') = 0;
    if (strlen(buffer) >= MAX_LINE) fail(log, "a sentence of more than 127 bytes");
    memcpy(lines[line_count++], buffer, strlen(buffer) + 1);
  }
  fclose(file);
  if (!ended) fail(log, "no whole epoch (from an RMC to the next)");
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
  int asking_speed = argc > 1 && strcmp(argv[1], "--asking-speed") == 0;
  argv += asking_speed;
  argc -= asking_speed;
  if (argc < 5) {
    fprintf(stderr, "usage: paced_floor [--asking-speed] RATE BAUD LOG LINK [STATS.json]\n");
    return 2;
  }
  double rate = atof(argv[1]);
  long baud = atol(argv[2]);
  if (!(rate > 0 && rate <= 100) || baud < 300 || baud > 19200) {
    fprintf(stderr, "paced_floor: RATE must be in (0, 100] Hz and BAUD in [300, 19200] (above, "
                    "mockgps joins sentences into one write)\n");
    return 2;
  }
  long bytes_per_second = baud / 10;
  const char *link = argv[4], *stats_path = argc > 5 ? argv[5] : NULL;
  read_epoch(argv[3]);
  long long period = (long long)(1e9 / rate + 0.5);
  long long epoch_bytes = 0;
  for (int i = 0; i < line_count; i++) epoch_bytes += strlen(lines[i]) + 5; /* "*HH\r\n" */
  if (epoch_bytes * 1000000000LL / bytes_per_second > period)
    fail(argv[3], "its epoch takes longer than a period on the line at this baud");
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
  struct sigaction action = {.sa_handler = on_term};
  sigaction(SIGTERM, &action, NULL);
  sigaction(SIGINT, &action, NULL);
  unlink(link);
  if (symlink(ttyname(slave), link) != 0) {
    perror(link);
    return 1;
  }
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  long long deadline = ((now.tv_sec * 1000000000LL + now.tv_nsec) / period + 2) * period;
  static char epoch[MAX_LINES][MAX_LINE + 16];
  static int lengths[MAX_LINES];
  long writes = 0;
  while (!stopping) {
    long long centiseconds = deadline / 10000000 % 8640000;
    char stamp[16];
    snprintf(stamp, sizeof stamp, "%02lld%02lld%02lld.%02lld", centiseconds / 360000,
             centiseconds / 6000 % 60, centiseconds / 100 % 60, centiseconds % 100);
    for (int i = 0; i < line_count; i++) lengths[i] = render(lines[i], stamp, epoch[i]);
    long long sent = 0;
    for (int i = 0; i < line_count && !stopping; i++) {
      long long at = deadline + sent * 1000000000LL / bytes_per_second;
      struct timespec request = {.tv_sec = at / 1000000000, .tv_nsec = at % 1000000000};
      int error;
      while ((error = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &request, NULL)) == EINTR &&
             !stopping) {
      }
      if (error != 0) break;
      struct termios speed;
      if (asking_speed) (void)tcgetattr(master, &speed);
      if (write(master, epoch[i], lengths[i]) > 0) writes++;
      sent += lengths[i];
    }
    deadline += period;
    clock_gettime(CLOCK_REALTIME, &now);
    long long current = now.tv_sec * 1000000000LL + now.tv_nsec;
    if (deadline <= current) deadline = (current / period + 1) * period;
  }
  unlink(link);
  if (stats_path) {
    FILE *file = fopen(stats_path, "w");
    if (file) {
      fprintf(file, "{\"writes\": %ld, \"sentences_per_epoch\": %d}\n", writes, line_count);
      fclose(file);
    }
  }
  return 0;
}
