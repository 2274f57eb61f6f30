print("mockgps")
