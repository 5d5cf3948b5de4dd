/* Placeholder driver: replaced by the real one. */
int main(void) { return 0; }
