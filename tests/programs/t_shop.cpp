// C++ names (issue 18): a namespace, a class with methods, a template
// function, an overloaded function, a function in an anonymous namespace.
// Cart::add is called 3 times with n = 1, 2, 3; twice<int> and twice<long>.
#include <cstdio>

namespace shop {

class Cart {
public:
    explicit Cart(int start) : n(start) {}
    __attribute__((noinline)) int add(int k);
    __attribute__((noinline)) int total() const { return n; }
    int n;
};

int Cart::add(int k)
{
    n += k;
    return n;
}

__attribute__((noinline)) int price(int units) { return units * 5; }
__attribute__((noinline)) int price(int units, int discount) { return units * 5 - discount; }

}  // namespace shop

namespace {
__attribute__((noinline)) int helper(int x) { return x + 1; }
}

template <typename T> __attribute__((noinline)) T twice(T x) { return x + x; }

__attribute__((noinline)) int checkout(shop::Cart &cart)
{
    return cart.total() + shop::price(2) + shop::price(3, 1) + helper(0);
}

int main()
{
    shop::Cart cart(10);
    for (int k = 1; k <= 3; k++)
        cart.add(k);
    int sum = checkout(cart) + twice<int>(4) + (int)twice<long>(5);
    std::printf("sum=%d\n", sum);
    return 0;
}
