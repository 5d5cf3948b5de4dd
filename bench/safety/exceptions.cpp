// exceptions.cpp: a C++ workload that throws heavily through libstdc++
// (std::stoi, vector::at, map::at, string::substr) and catches; prints a
// checksum of everything it computed (safety-workloads.sh).
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? std::stol(argv[1]) : 20000, sum = 0, caught = 0;
    std::vector<int> v{1, 2, 3, 4, 5};
    std::map<std::string, long> m{{"a", 1}, {"b", 2}};
    for (long i = 0; i < rounds; i++) {
        std::string s = std::to_string(i);
        try {
            sum += std::stoi(i % 7 == 0 ? "x" + s : s);
            sum += v.at((size_t)(i % 9));
            sum += m.at(i % 5 == 0 ? "z" : "a");
            sum += (long)s.substr((size_t)(i % 11)).size();
        } catch (const std::invalid_argument &) {
            caught += 1;
        } catch (const std::out_of_range &) {
            caught += 1000;
        }
    }
    std::printf("sum=%ld caught=%ld\n", sum, caught);
    return 0;
}
