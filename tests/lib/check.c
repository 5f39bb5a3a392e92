/* SPDX-License-Identifier: Apache-2.0 */
#include "check.h"

int check_failures, check_passed, check_failed;

int check_summary(void)
{
	printf("%d passed, %d failed\n", check_passed, check_failed);
	return check_failed ? 1 : 0;
}
