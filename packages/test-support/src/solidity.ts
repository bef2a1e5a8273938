/**
 * Compiles Solidity at test time with solc-js (standard JSON input, optimizer on), so contract
 * tests run the real bytecode of a source kept beside them. Used by the quote-verifier,
 * transfer-verifier and ENS resolver tests.
 */
import solc from 'solc';
import type { Abi, Hex } from 'viem';

/** solc-js ships no type declarations; its standard-JSON entry point takes and returns JSON text. */
const solcJs = solc as { compile(input: string): string };

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

/** A compiled contract: its ABI and creation bytecode (0x hex). */
export interface CompiledContract {
  readonly abi: Abi;
  readonly bytecode: Hex;
}

/**
 * Compiles `source` (file name `fileName`) once and returns every contract it declares, by name.
 *
 * @throws Error with solc's formatted messages when compilation has errors.
 */
export function compileSolidityContracts(
  fileName: string,
  source: string,
): Record<string, CompiledContract> {
  const input = {
    language: 'Solidity',
    sources: { [fileName]: { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solcJs.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  return Object.fromEntries(
    Object.entries(output.contracts?.[fileName] ?? {}).map(([name, c]) => [
      name,
      { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` },
    ]),
  );
}

/**
 * Compiles `source` (file name `fileName`) and returns contract `contractName`.
 *
 * @throws Error with solc's formatted messages when compilation has errors, or when the contract
 *   is not in the output.
 */
export function compileSolidity(
  fileName: string,
  source: string,
  contractName: string,
): CompiledContract {
  const contract = compileSolidityContracts(fileName, source)[contractName];
  if (!contract) throw new Error(`${contractName} not found in ${fileName}`);
  return contract;
}
