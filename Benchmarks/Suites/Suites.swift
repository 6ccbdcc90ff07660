// The benchmark suites run by `mediabench bench`.
