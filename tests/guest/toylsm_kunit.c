// SPDX-License-Identifier: GPL-2.0
/*
 * Relay the boot's KUnit results of the toylsm suite from the kernel
 * log as TAP, so that the host counts each KUnit case. A missing suite
 * is a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>

int main(void)
{
	static char log[1 << 20];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);
	int in = 0, found = 0;
	char *line, *save;

	if (n < 0) {
		perror("klogctl");
		return 1;
	}
	log[n] = '\0';
	for (line = strtok_r(log, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *t = strstr(line, "] ");

		t = t ? t + 2 : line;
		if (strstr(t, "# Subtest: toylsm")) {
			in = found = 1;
			continue;
		}
		if (!in)
			continue;
		if (t[0] != ' ') {	/* the suite's own result line */
			in = 0;
			continue;
		}
		t += strspn(t, " ");
		if (!strncmp(t, "1..", 3) || !strncmp(t, "ok ", 3) ||
		    !strncmp(t, "not ok ", 7) || t[0] == '#')
			printf("%s\n", t);
	}
	if (!found)
		printf("1..1\nnot ok 1 the toylsm KUnit suite did not run\n");
	return 0;
}
