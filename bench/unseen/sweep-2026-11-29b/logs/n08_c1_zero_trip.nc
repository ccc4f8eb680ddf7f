note: no FLOPs at these sizes: the pipelined loop runs no iterations (its bounds meet), so the runner reports its time, no TFLOP/s
kernel pcl: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 1.645 us, bound: latency; 3.35 TB/s from DRAM predicted (1 CTA(s)/SM, 1.00 waves)
time: parse 1.6 ms, passes 16.3 ms, ptx 57.3 ms (PTX after 78.6 ms), reference 49.7 ms, IR text 2.6 ms, ptxas 0.0 ms, total 81.2 ms
bundle: /tmp/sweep8b/out/n08_c1_zero_trip.nc
