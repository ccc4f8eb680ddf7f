note: no FLOPs at these sizes: the pipelined loop runs no iterations (its bounds meet), so the runner reports its time, no TFLOP/s
kernel offs: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 1.783 us, bound: latency; 2.36 TB/s from DRAM predicted (1 CTA(s)/SM, 0.48 waves)
time: parse 1.6 ms, passes 12.7 ms, ptx 49.3 ms (PTX after 65.7 ms), reference 48.6 ms, IR text 2.5 ms, ptxas 0.0 ms, total 68.2 ms
bundle: /tmp/sweep8b/out/n04_ks_gt_k.nc
