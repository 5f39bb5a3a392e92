/* generated */
int cmd_replay(int argc, char **argv);
int main(int argc, char **argv) { return cmd_replay(argc, argv); }
