/*
   A backtrace for a host-side crash on the GPU machine, which has no gdb (cuda-gdb runs, but too slowly for a long
   check). Build it there and preload it into the crashing program, with PETSc's own handler off:

     gcc -shared -fPIC -O1 -o build/segv_backtrace.so tests/device/segv_backtrace.c
     LD_PRELOAD=$PWD/build/segv_backtrace.so stdbuf -oL build/device/check_kernels ... -no_signal_handler

   On SIGSEGV or SIGBUS it prints the frames (backtrace_symbols_fd), their raw addresses and /proc/self/maps to stderr
   and exits 99; `addr2line -f -e PROGRAM (address - the program's first mapping)` names the functions. It found the
   check_kernels stack overflow of 2026-11-24 (35 configurations in 32-entry arrays, docs/TESTING.md).
*/
#define _GNU_SOURCE
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void Put(const char *s, size_t n)
{
  while (n > 0) {
    ssize_t w = write(2, s, n);
    if (w <= 0) return;
    s += w;
    n -= (size_t)w;
  }
}

static void Handler(int sig)
{
  void *bt[64];
  char  buf[256];
  int   n = backtrace(bt, 64), len, fd;

  len = snprintf(buf, sizeof buf, "\n=== segv_backtrace: signal %d, %d frames\n", sig, n);
  Put(buf, (size_t)len);
  backtrace_symbols_fd(bt, n, 2);
  for (int i = 0; i < n; i++) {
    len = snprintf(buf, sizeof buf, "RAW %p\n", bt[i]);
    Put(buf, (size_t)len);
  }
  if ((fd = open("/proc/self/maps", O_RDONLY)) >= 0) {
    ssize_t r;
    while ((r = read(fd, buf, sizeof buf)) > 0) Put(buf, (size_t)r);
    close(fd);
  }
  _exit(99);
}

__attribute__((constructor)) static void Install(void)
{
  static char      stack[1 << 16]; /* a stack overflow must not take the handler with it */
  stack_t          ss = {.ss_sp = stack, .ss_size = sizeof stack, .ss_flags = 0};
  struct sigaction sa;

  sigaltstack(&ss, NULL);
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = Handler;
  sa.sa_flags   = SA_ONSTACK;
  sigaction(SIGSEGV, &sa, NULL);
  sigaction(SIGBUS, &sa, NULL);
}
