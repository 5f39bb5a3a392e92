/* SPDX-License-Identifier: Apache-2.0 */
/*
 * silent_server [SECONDS]: a loopback HTTP server that never answers, the
 * hung debuginfod of cli_debuginfod.sh.  Listens on 127.0.0.1 at a port the
 * kernel picks, prints the port on stdout, then accepts every connection,
 * reads what it is sent and sends nothing.  Exits on SIGTERM, or after
 * SECONDS (default 120) so a test that dies cannot leave it behind.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_CONN 64

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 120;
	int ls = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof a;
	if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof a) != 0 || listen(ls, 16) != 0 ||
	    getsockname(ls, (struct sockaddr *)&a, &len) != 0) {
		perror("silent_server");
		return 1;
	}
	printf("%d\n", ntohs(a.sin_port));
	fflush(stdout);
	alarm((unsigned)seconds);
	struct pollfd p[MAX_CONN + 1] = { { .fd = ls, .events = POLLIN } };
	int n = 1;
	for (;;) {
		if (poll(p, (nfds_t)n, -1) < 0)
			continue;
		if ((p[0].revents & POLLIN) && n <= MAX_CONN) {
			int c = accept(ls, NULL, NULL);
			if (c >= 0)
				p[n++] = (struct pollfd){ .fd = c, .events = POLLIN };
		}
		for (int i = 1; i < n; i++) {
			char buf[4096];
			if ((p[i].revents & (POLLIN | POLLHUP)) && read(p[i].fd, buf, sizeof buf) <= 0) {
				close(p[i].fd); /* the client gave up */
				p[i--] = p[--n];
			}
		}
	}
}
