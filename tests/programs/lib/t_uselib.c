/* Calls into libt_lib.so, found through the build's RUNPATH. */
int lib_mul(int a, int b);

int main(void)
{
    int total = 0;
    for (int i = 1; i <= 3; i++)
        total += lib_mul(i, 10);
    return total == 60 ? 0 : 1;
}
