// NetworkModel: seeded network impairment models and the trace file formats.
