note: no FLOPs at these sizes: the pipelined loop runs no iterations (its bounds meet), so the runner reports its time, no TFLOP/s
kernel gemm: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 1.783 us, bound: latency; 2.28 TB/s from DRAM predicted (1 CTA(s)/SM, 0.48 waves)
time: parse 1.4 ms, passes 13.4 ms, ptx 51.1 ms (PTX after 67.7 ms), reference 35.6 ms, IR text 2.4 ms, ptxas 0.0 ms, total 70.2 ms
bundle: /tmp/sweep8b/out/z12_zero_trip_by_size.nc
