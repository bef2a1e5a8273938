/**
 * A test ENS Universal Resolver, compiled with solc-js at test time: it answers
 * `resolveWithGateways(bytes name, bytes data, string[] gateways)` (the call viem's
 * `getEnsAddress` makes) for the `addr(bytes32)` profile, reverting with `ResolverNotFound(bytes)`
 * for unknown names like the deployed resolver does. The DNS-encoded name and the namehash inside
 * `data` must belong together (both registered by `setAddr`), so a wrong encoding fails the test.
 */
import { compileSolidity } from '@ctss/test-support';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

contract TestUniversalResolver {
    error ResolverNotFound(bytes name);
    error UnsupportedResolverProfile(bytes4 selector);

    mapping(bytes32 => address) private addrOf;
    mapping(bytes32 => bytes32) private dnsNameHashOf;

    function setAddr(bytes calldata dnsName, bytes32 node, address target) external {
        addrOf[node] = target;
        dnsNameHashOf[node] = keccak256(dnsName);
    }

    function resolveWithGateways(bytes calldata name, bytes calldata data, string[] calldata)
        external view returns (bytes memory, address)
    {
        if (bytes4(data[:4]) != 0x3b3b57de) revert UnsupportedResolverProfile(bytes4(data[:4]));
        bytes32 node = abi.decode(data[4:], (bytes32));
        address target = addrOf[node];
        if (target == address(0) || dnsNameHashOf[node] != keccak256(name)) revert ResolverNotFound(name);
        return (abi.encode(target), address(this));
    }
}
`;

/** Compiles the test resolver; returns its creation bytecode as 0x hex. */
export function compileTestResolver(): `0x${string}` {
  return compileSolidity('TestUniversalResolver.sol', SOURCE, 'TestUniversalResolver').bytecode;
}
