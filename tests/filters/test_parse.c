#include "check.h"
#include "fixture_target.h"
int main(int argc, char **argv)
{
	fixture_init(argc, argv);
	return check_summary();
}
