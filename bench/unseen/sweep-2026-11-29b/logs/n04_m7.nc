note: no FLOPs at these sizes: the pipelined loop runs no iterations (its bounds meet), so the runner reports its time, no TFLOP/s
kernel offs: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 1.783 us, bound: latency; 0.00 TB/s from DRAM predicted (1 CTA(s)/SM, 0.01 waves)
time: parse 1.6 ms, passes 12.7 ms, ptx 49.7 ms (PTX after 66.0 ms), reference 50.4 ms, IR text 2.5 ms, ptxas 0.0 ms, total 68.6 ms
bundle: /tmp/sweep8b/out/n04_m7.nc
