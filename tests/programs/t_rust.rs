// Rust names for tap's probes (uprobe_rust_* goldens): a module, a function
// in it, a generic and a method; main calls each a fixed number of times.
mod shop {
    pub struct Cart {
        pub total: i64,
    }

    impl Cart {
        #[inline(never)]
        pub fn put(&mut self, price: i64) {
            self.total = add(self.total, price);
        }
    }

    #[inline(never)]
    pub fn add(a: i64, b: i64) -> i64 {
        a + b
    }

    #[inline(never)]
    pub fn twice<T: Copy + std::ops::Add<Output = T>>(x: T) -> T {
        x + x
    }
}

fn main() {
    let mut cart = shop::Cart { total: 0 };
    let mut sum = 0i64;
    for i in 1..=3 {
        sum = shop::add(sum, i * 10);
        cart.put(i);
    }
    sum += shop::twice(cart.total);
    println!("sum={}", sum);
}
