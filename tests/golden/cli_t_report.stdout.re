begin
n=5
----- probe hit report: 
begin, \(cli_t_report\.tp:6:1\), hits: 1, nsecs: [1-9][0-9]*min/[1-9][0-9]*avg/[1-9][0-9]*max, variance: [0-9]+, from: begin, index: 0
timer\.ms\(10\), \(cli_t_report\.tp:7:1\), hits: 5, nsecs: [1-9][0-9]*min/[1-9][0-9]*avg/[1-9][0-9]*max, variance: [0-9]+, from: timer\.ms\(10\), index: 1
end, \(cli_t_report\.tp:9:1\), hits: 1, nsecs: [1-9][0-9]*min/[1-9][0-9]*avg/[1-9][0-9]*max, variance: [0-9]+, from: end, index: 3
