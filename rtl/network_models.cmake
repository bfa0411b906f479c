# Parameter sets of the verilated blocks that run inside the network (RTL in the loop,
# [hardware] <block> = "rtl"). <name>|<top module>|<parameters>; names start with net_<block>_.
# A network whose blocks need another set stops with an error that prints the line to add here.
set(CCSIM_NET_MODELS
  # CBCM contention-degree unit: FB16 of 000 (4 routers of 4 nodes, radix 7) and FB512 (8x8
  # routers of 8 nodes, radix 22); 000's N = 100, B = 10, M = 10, metric > 1, randomized D_cr.
  "net_cdu_fb16|contention_degree_unit|Radix=7,NumInputs=7,NumSamples=100,BoundSampleInterval=10,NumBoundSamples=10,MetricThreshold=1"
  "net_cdu_fb512|contention_degree_unit|Radix=22,NumInputs=22,NumSamples=100,BoundSampleInterval=10,NumBoundSamples=10,MetricThreshold=1"
  # CBCM token throttler with the network's widths (any network size), 16 entries, 10,000-cycle
  # source epoch kept on a D_t update (CBCM's default cbcm_epoch_restart = "first_throttle");
  # up to 8 packets generated per cycle (a message's packets).
  "net_tt_cbcm|token_throttler|NumEntries=16,DestWidth=32,DtWidth=24,SizeWidth=16,TokenWidth=48,SrcEpoch=10000,NumQueryPorts=1,NumGenPorts=8,NumFullPorts=1,KeepEpochOnUpdate=1"
  # 2,000-cycle source epoch restarted by every THROTTLE (the RTL-in-the-loop test: sources
  # unthrottle within a short run; cbcm_epoch_restart = "every_throttle").
  "net_tt_cbcm_e2000|token_throttler|NumEntries=16,DestWidth=32,DtWidth=24,SizeWidth=16,TokenWidth=48,SrcEpoch=2000,NumQueryPorts=1,NumGenPorts=8,NumFullPorts=1"
  # Contention counters. The 72-node test dragonfly (p=2, a=4, h=2) with th = 3: Base, and ECtN
  # (combined th = 5); the 1056-node dragonfly (p=4, a=8, h=4) with th = 6: Base, and ECtN.
  "net_cc_df72|contention_counters|NumPorts=7,CounterWidth=8,Threshold=3,NumGlobalLinks=1,NumGroupRouters=2,PartialWidth=8,SentWidth=4,BroadcastPeriod=100,CombinedThreshold=10,NumIncPorts=32,NumDecPorts=32,NumRxPorts=1"
  "net_cc_df72_ectn|contention_counters|NumPorts=7,CounterWidth=8,Threshold=3,NumGlobalLinks=8,NumGroupRouters=4,PartialWidth=8,SentWidth=4,BroadcastPeriod=100,CombinedThreshold=5,NumIncPorts=32,NumDecPorts=32,NumRxPorts=3"
  "net_cc_df1056|contention_counters|NumPorts=15,CounterWidth=9,Threshold=6,NumGlobalLinks=1,NumGroupRouters=2,PartialWidth=9,SentWidth=4,BroadcastPeriod=100,CombinedThreshold=10,NumIncPorts=32,NumDecPorts=32,NumRxPorts=1"
  "net_cc_df1056_ectn|contention_counters|NumPorts=15,CounterWidth=9,Threshold=6,NumGlobalLinks=32,NumGroupRouters=8,PartialWidth=9,SentWidth=4,BroadcastPeriod=100,CombinedThreshold=10,NumIncPorts=32,NumDecPorts=32,NumRxPorts=7"
  # Last-hop scheduler: LHRP switches of the 72-node test dragonfly (p=2, theta = 8 flits) and
  # of the 1056-node one (p=4, theta = 1000); SRP's per-endpoint scheduler (one endpoint).
  "net_lhs_df72_t8|last_hop_scheduler|NumEndpoints=2,CountWidth=16,DropThreshold=8,ThresholdStrict=0,TimeWidth=32,SizeWidth=16,NumReqPorts=16,NumEnqPorts=32,NumDeqPorts=8,FlitsWidth=8"
  "net_lhs_p4|last_hop_scheduler|NumEndpoints=4,CountWidth=16,DropThreshold=1000,ThresholdStrict=0,TimeWidth=32,SizeWidth=16,NumReqPorts=16,NumEnqPorts=32,NumDeqPorts=8,FlitsWidth=8"
  "net_lhs_srp|last_hop_scheduler|NumEndpoints=1,CountWidth=16,DropThreshold=1000,ThresholdStrict=0,TimeWidth=32,SizeWidth=16,NumReqPorts=16,NumEnqPorts=32,NumDeqPorts=8,FlitsWidth=8"
)
