kernel bothred: MMA(i) loadA(i+2) loadB(i+2)
predicted: iteration 0.336 us, bound: tensor cores; 206.7 TFLOP/s predicted (1 CTA(s)/SM, 0.48 waves)
time: parse 1.5 ms, passes 17.6 ms, ptx 62.4 ms (PTX after 83.6 ms), reference 47.8 ms, IR text 2.7 ms, ptxas 0.0 ms, total 86.4 ms
bundle: /tmp/sweep8b/out/n03_tails.nc
