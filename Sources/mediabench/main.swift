import Foundation
import MediabenchCLI

exit(Mediabench.run(Array(CommandLine.arguments.dropFirst())))
