// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// Test stand-ins for the contracts the indexer reads, emitting the deployed events with the
/// deployed signatures (docs/indexer.md "Events") in the order and from the contract that the
/// deployed contracts emit them (docs/indexer.md "Event order"; checked against
/// circlefin/evm-cctp-contracts `src/MessageTransmitter.sol`, `src/TokenMessenger.sol`,
/// `src/TokenMinter.sol`, `src/v2/MessageTransmitterV2.sol`, `src/v2/TokenMessengerV2.sol`,
/// `src/v2/BaseTokenMessenger.sol`, `src/v2/TokenMinterV2.sol`, and circlefin/stablecoin-evm
/// `contracts/v1/FiatTokenV1.sol` for the token): a bridge token, Circle's TokenMinter,
/// TokenMessenger and MessageTransmitter (v1 or v2 event shapes and message layouts, chosen at
/// deployment), a batch relayer, and a transfer contract that checks the relayer-fee quote with
/// ecrecover and emits CashmereTransfer. Attestations are not verified (test chain).

/// FiatToken's events: `mint` emits Mint then Transfer(0, to); `burn` emits Burn then
/// Transfer(burner, 0); `transferFrom` emits only Transfer.
contract TestUsdc {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    address public owner;
    mapping(address => bool) public minters;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Mint(address indexed minter, address indexed to, uint256 amount);
    event Burn(address indexed burner, uint256 amount);

    constructor() { owner = msg.sender; minters[msg.sender] = true; }

    function addMinter(address m) external { require(msg.sender == owner, "owner"); minters[m] = true; }

    function mint(address to, uint256 value) external returns (bool) {
        require(minters[msg.sender], "minter");
        require(value > 0, "mint amount not greater than 0");
        balanceOf[to] += value;
        emit Mint(msg.sender, to, value);
        emit Transfer(address(0), to, value);
        return true;
    }

    function burn(uint256 value) external {
        require(minters[msg.sender], "minter");
        balanceOf[msg.sender] -= value;
        emit Burn(msg.sender, value);
        emit Transfer(msg.sender, address(0), value);
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        if (allowance[from][msg.sender] != type(uint256).max) allowance[from][msg.sender] -= value;
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
        return true;
    }
}

/// TokenMinter (v1) / TokenMinterV2: the only minter of the token; holds the deposits it burns.
/// Emits nothing itself (the token emits Mint/Burn/Transfer).
contract TestTokenMinter {
    TestUsdc public immutable usdc;
    address public tokenMessenger;

    constructor(TestUsdc usdc_) { usdc = usdc_; }

    function setTokenMessenger(address m) external { require(tokenMessenger == address(0), "set"); tokenMessenger = m; }

    /// TokenMinter.mint: one mint to `to`.
    function mint(address to, uint256 amount) external returns (address) {
        require(msg.sender == tokenMessenger, "messenger");
        require(usdc.mint(to, amount), "Mint operation failed");
        return address(usdc);
    }

    /// TokenMinterV2.mint with two recipients: the recipient's mint, then the fee recipient's.
    function mint(address recipientOne, address recipientTwo, uint256 amountOne, uint256 amountTwo) external returns (address) {
        require(msg.sender == tokenMessenger, "messenger");
        require(usdc.mint(recipientOne, amountOne), "First mint operation failed");
        require(usdc.mint(recipientTwo, amountTwo), "Second mint operation failed");
        return address(usdc);
    }

    /// TokenMinter.burn: burns what the messenger deposited here.
    function burn(uint256 amount) external {
        require(msg.sender == tokenMessenger, "messenger");
        usdc.burn(amount);
    }
}

contract TestMessageTransmitter {
    uint32 public immutable localDomain;
    uint8 public immutable cctpVersion;
    uint64 public nextNonce;
    address public tokenMessenger;
    /// v1: keccak256(sourceDomain, nonce); v2: the nonce; 1 once received.
    mapping(bytes32 => uint256) public usedNonces;

    event MessageSent(bytes message);
    event MessageReceived(address indexed caller, uint32 sourceDomain, uint64 indexed nonce, bytes32 sender, bytes messageBody);

    constructor(uint32 localDomain_, uint8 cctpVersion_) {
        localDomain = localDomain_;
        cctpVersion = cctpVersion_;
    }

    function setTokenMessenger(address m) external { require(tokenMessenger == address(0), "set"); tokenMessenger = m; }

    /// v1 layout with a sequential nonce; v2 layout with a zero nonce (assigned off-chain).
    function sendMessage(uint32 destinationDomain, bytes32 recipient, uint32 minFinalityThreshold, bytes calldata body) external returns (uint64 nonce) {
        require(msg.sender == tokenMessenger, "messenger");
        bytes32 sender = bytes32(uint256(uint160(msg.sender)));
        if (cctpVersion == 1) {
            nonce = nextNonce++;
            emit MessageSent(abi.encodePacked(uint32(0), localDomain, destinationDomain, nonce, sender, recipient, bytes32(0), body));
        } else {
            emit MessageSent(abi.encodePacked(uint32(1), localDomain, destinationDomain, bytes32(0), sender, recipient, bytes32(0), minFinalityThreshold, uint32(0), body));
        }
    }

    /// As MessageTransmitter(V2).receiveMessage: marks the nonce used, has the handler (the
    /// TokenMessenger) mint, and only then emits MessageReceived. Any attestation is accepted.
    function receiveMessage(bytes calldata message, bytes calldata) external returns (bool) {
        uint32 sourceDomain = uint32(bytes4(message[4:8]));
        require(uint32(bytes4(message[8:12])) == localDomain, "Invalid destination domain");
        if (cctpVersion == 1) {
            uint64 nonce = uint64(bytes8(message[12:20]));
            bytes32 key = keccak256(abi.encodePacked(sourceDomain, nonce));
            require(usedNonces[key] == 0, "Nonce already used");
            usedNonces[key] = 1;
            bytes32 sender = bytes32(message[20:52]);
            bytes calldata body = message[116:];
            require(TestTokenMessenger(tokenMessenger).handleReceiveMessage(sourceDomain, sender, body), "handleReceiveMessage() failed");
            emit MessageReceived(msg.sender, sourceDomain, nonce, sender, body);
        } else {
            bytes32 nonce = bytes32(message[12:44]);
            require(usedNonces[nonce] == 0, "Nonce already used");
            usedNonces[nonce] = 1;
            bytes32 sender = bytes32(message[44:76]);
            uint32 executed = uint32(bytes4(message[144:148]));
            bytes calldata body = message[148:];
            if (executed < 2000) {
                require(TestTokenMessenger(tokenMessenger).handleReceiveUnfinalizedMessage(sourceDomain, sender, executed, body), "handleReceiveUnfinalizedMessage() failed");
            } else {
                require(TestTokenMessenger(tokenMessenger).handleReceiveFinalizedMessage(sourceDomain, sender, executed, body), "handleReceiveFinalizedMessage() failed");
            }
            emitV2(sourceDomain, nonce, sender, executed, body);
        }
        return true;
    }

    /// The v2 event has the same name as v1 on the deployed contract; it is declared under
    /// another name here and emitted with the deployed signature's topic0 through assembly.
    function emitV2(uint32 sourceDomain, bytes32 nonce, bytes32 sender, uint32 executed, bytes calldata body) private {
        bytes32 topic0 = keccak256("MessageReceived(address,uint32,bytes32,bytes32,uint32,bytes)");
        bytes memory data = abi.encode(sourceDomain, sender, body);
        address caller_ = msg.sender;
        assembly {
            log4(add(data, 32), mload(data), topic0, caller_, nonce, executed)
        }
    }
}

contract TestTokenMessenger {
    TestMessageTransmitter public immutable transmitter;
    TestUsdc public immutable usdc;
    TestTokenMinter public immutable minter;
    uint8 public immutable cctpVersion;
    /// v2: where Circle's fee executed is minted (TokenMessengerV2 `feeRecipient`).
    address public immutable feeRecipient;

    event DepositForBurn(uint64 indexed nonce, address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller);
    event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken);

    constructor(TestMessageTransmitter transmitter_, TestUsdc usdc_, TestTokenMinter minter_) {
        transmitter = transmitter_;
        usdc = usdc_;
        minter = minter_;
        cctpVersion = transmitter_.cctpVersion();
        feeRecipient = msg.sender;
    }

    /// As TokenMessenger._depositForBurn: the deposit moves to the minter, which burns it; then
    /// the transmitter emits MessageSent, then this contract DepositForBurn.
    function depositForBurn(uint256 amount, uint32 destinationDomain, bytes32 mintRecipient, address burnToken) external returns (uint64 nonce) {
        require(cctpVersion == 1, "v1");
        require(amount > 0, "Amount must be nonzero");
        require(usdc.transferFrom(msg.sender, address(minter), amount), "Transfer operation failed");
        minter.burn(amount);
        bytes memory body = abi.encodePacked(uint32(0), bytes32(uint256(uint160(burnToken))), mintRecipient, amount, bytes32(uint256(uint160(msg.sender))));
        nonce = transmitter.sendMessage(destinationDomain, bytes32(uint256(uint160(address(this)))), 0, body);
        emit DepositForBurn(nonce, burnToken, amount, msg.sender, mintRecipient, destinationDomain, bytes32(uint256(uint160(address(this)))), bytes32(0));
    }

    /// As TokenMessengerV2._depositForBurn (maxFee < amount; feeExecuted and expirationBlock zero
    /// in the sent body, filled in by the attestation service).
    function depositForBurnWithHook(uint256 amount, uint32 destinationDomain, bytes32 mintRecipient, address burnToken, bytes32 destinationCaller, uint256 maxFee, uint32 minFinalityThreshold, bytes calldata hookData) external {
        require(cctpVersion == 2, "v2");
        require(amount > 0, "Amount must be nonzero");
        require(maxFee < amount, "Max fee must be less than amount");
        require(usdc.transferFrom(msg.sender, address(minter), amount), "Transfer operation failed");
        minter.burn(amount);
        bytes memory body = abi.encodePacked(uint32(1), bytes32(uint256(uint160(burnToken))), mintRecipient, amount, bytes32(uint256(uint160(msg.sender))), maxFee, uint256(0), uint256(0), hookData);
        transmitter.sendMessage(destinationDomain, bytes32(uint256(uint160(address(this)))), minFinalityThreshold, body);
        emitDepositV2(burnToken, amount, mintRecipient, destinationDomain, destinationCaller, maxFee, minFinalityThreshold, hookData);
    }

    function emitDepositV2(address burnToken, uint256 amount, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationCaller, uint256 maxFee, uint32 minFinalityThreshold, bytes calldata hookData) private {
        bytes32 topic0 = keccak256("DepositForBurn(address,uint256,address,bytes32,uint32,bytes32,bytes32,uint256,uint32,bytes)");
        bytes memory data = abi.encode(amount, mintRecipient, destinationDomain, bytes32(uint256(uint160(address(this)))), destinationCaller, maxFee, hookData);
        address depositor = msg.sender;
        assembly {
            log4(add(data, 32), mload(data), topic0, burnToken, depositor, minFinalityThreshold)
        }
    }

    /// v1 handler (TokenMessenger.handleReceiveMessage): mints the body's amount to its mintRecipient.
    function handleReceiveMessage(uint32, bytes32, bytes calldata body) external returns (bool) {
        require(msg.sender == address(transmitter), "Invalid message transmitter");
        require(cctpVersion == 1, "Invalid message body version");
        address recipient = address(uint160(uint256(bytes32(body[36:68]))));
        uint256 amount = uint256(bytes32(body[68:100]));
        address token = minter.mint(recipient, amount);
        emit MintAndWithdraw(recipient, amount, token);
        return true;
    }

    /// v2 handler for a finalized message (TokenMessengerV2.handleReceiveFinalizedMessage).
    function handleReceiveFinalizedMessage(uint32, bytes32, uint32, bytes calldata body) external returns (bool) {
        return handleReceiveV2(body);
    }

    /// v2 handler for a fast message (TokenMessengerV2.handleReceiveUnfinalizedMessage: at least 500).
    function handleReceiveUnfinalizedMessage(uint32, bytes32, uint32 finalityThresholdExecuted, bytes calldata body) external returns (bool) {
        require(finalityThresholdExecuted >= 500, "Unsupported finality threshold");
        return handleReceiveV2(body);
    }

    /// As TokenMessengerV2._handleReceiveMessage and BaseTokenMessenger._mintAndWithdraw: mints
    /// amount - feeExecuted to the recipient (and the fee to feeRecipient when non-zero), then
    /// emits MintAndWithdraw(recipient, amount - fee, token, fee).
    function handleReceiveV2(bytes calldata body) private returns (bool) {
        require(msg.sender == address(transmitter), "Invalid message transmitter");
        require(cctpVersion == 2, "Invalid message body version");
        address recipient = address(uint160(uint256(bytes32(body[36:68]))));
        uint256 amount = uint256(bytes32(body[68:100]));
        uint256 maxFee = uint256(bytes32(body[132:164]));
        uint256 fee = uint256(bytes32(body[164:196]));
        uint256 expirationBlock = uint256(bytes32(body[196:228]));
        require(expirationBlock == 0 || expirationBlock > block.number, "Message expired and must be re-signed");
        require(fee == 0 || fee < amount, "Fee equals or exceeds amount");
        require(fee <= maxFee, "Fee exceeds max fee");
        address token = fee > 0
            ? minter.mint(recipient, feeRecipient, amount - fee, fee)
            : minter.mint(recipient, amount - fee);
        bytes32 topic0 = keccak256("MintAndWithdraw(address,uint256,address,uint256)");
        bytes memory data = abi.encode(amount - fee, fee);
        assembly {
            log3(add(data, 32), mload(data), topic0, recipient, token)
        }
        return true;
    }
}

/// A relayer that receives several messages in one transaction (as batch relayers do): each
/// `receiveMessage` in turn, so the receipt holds mint, MessageReceived, mint, MessageReceived.
contract TestBatchRelayer {
    function receiveMessages(TestMessageTransmitter transmitter, bytes[] calldata messages, bytes[] calldata attestations) external {
        require(messages.length == attestations.length, "length");
        for (uint256 i = 0; i < messages.length; i++) {
            require(transmitter.receiveMessage(messages[i], attestations[i]), "receive failed");
        }
    }
}

contract TestCashmere {
    uint32 public immutable localDomain;
    address public immutable signer;
    TestUsdc public immutable usdc;
    TestTokenMessenger public immutable messenger;
    TestTokenMessenger public immutable messengerV2;
    bool public immutable legacyEvent;
    uint16 public feeBP;
    uint256 public nonce;

    error InvalidSignature();
    error DeadlineExpired();

    struct TransferParams {
        uint256 amount;
        uint64 fee;
        uint64 deadline;
        uint64 gasDropAmount;
        uint32 destinationDomain;
        bytes32 recipient;
        bytes32 solanaOwner;
        bool isNative;
        bytes signature;
    }

    struct TransferV2Params {
        uint256 amount;
        uint256 maxFee;
        uint64 fee;
        uint64 deadline;
        uint64 gasDropAmount;
        uint32 destinationDomain;
        uint32 minFinalityThreshold;
        bytes32 recipient;
        bool isNative;
        bytes hookData;
        bytes signature;
    }

    constructor(uint32 localDomain_, address signer_, TestUsdc usdc_, TestTokenMessenger messenger_, TestTokenMessenger messengerV2_, bool legacyEvent_, uint16 feeBP_) {
        localDomain = localDomain_;
        signer = signer_;
        usdc = usdc_;
        messenger = messenger_;
        messengerV2 = messengerV2_;
        legacyEvent = legacyEvent_;
        feeBP = feeBP_;
        usdc_.approve(address(messenger_), type(uint256).max);
        usdc_.approve(address(messengerV2_), type(uint256).max);
    }

    /// The quote digest of the spec packing (packages/signing: uint32, uint32, uint256, uint256, bool, uint8).
    function checkQuote(uint32 destinationDomain, uint256 fee, uint256 deadline, bool isNative, uint8 version, bytes memory signature) internal view {
        if (block.timestamp > deadline) revert DeadlineExpired();
        bytes32 digest = keccak256(abi.encodePacked(localDomain, destinationDomain, fee, deadline, isNative, version));
        require(signature.length == 65, "signature length");
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 32))
            s := mload(add(signature, 64))
            v := byte(0, mload(add(signature, 96)))
        }
        address recovered = ecrecover(digest, v, r, s);
        if (recovered == address(0) || recovered != signer) revert InvalidSignature();
    }

    function transfer(TransferParams memory p) external payable {
        checkQuote(p.destinationDomain, p.fee, p.deadline, p.isNative, 1, p.signature);
        uint256 usdcFee = (p.amount * feeBP) / 10000 + (p.isNative ? 0 : uint256(p.fee));
        uint256 pulled = p.amount + (p.isNative ? 0 : uint256(p.gasDropAmount));
        if (p.isNative) require(msg.value >= uint256(p.fee) + p.gasDropAmount, "native");
        usdc.transferFrom(msg.sender, address(this), pulled);
        uint256 burned = p.amount - usdcFee;
        messenger.depositForBurn(burned, p.destinationDomain, p.recipient, address(usdc));
        emitTransfer(p.destinationDomain, p.recipient, p.solanaOwner, burned, p.gasDropAmount, p.isNative);
    }

    function transferV2(TransferV2Params memory p) external payable {
        checkQuote(p.destinationDomain, p.fee, p.deadline, p.isNative, 2, p.signature);
        uint256 usdcFee = (p.amount * feeBP) / 10000 + (p.isNative ? 0 : uint256(p.fee) + p.gasDropAmount);
        if (p.isNative) require(msg.value >= uint256(p.fee) + p.gasDropAmount, "native");
        usdc.transferFrom(msg.sender, address(this), p.amount);
        uint256 burned = p.amount - usdcFee;
        messengerV2.depositForBurnWithHook(burned, p.destinationDomain, p.recipient, address(usdc), bytes32(0), p.maxFee, p.minFinalityThreshold, p.hookData);
        emitTransfer(p.destinationDomain, p.recipient, bytes32(0), burned, p.gasDropAmount, p.isNative);
    }

    event CashmereTransfer(uint32 destinationDomain, uint256 indexed nonce, bytes32 recipient, bytes32 solanaOwner, address indexed user, uint64 amount, uint256 gasDropAmount, bool isNative);
    event CashmereTransferLegacy(uint32 destinationDomain, uint256 indexed nonce, bytes32 recipient, bytes32 solanaOwner, address indexed user, uint256 amount, uint256 gasDropAmount, bool isNative);

    /// The deployed event (uint64 amount), or the pre-2025-09-02 one (uint256 amount) under its own topic0.
    function emitTransfer(uint32 destinationDomain, bytes32 recipient, bytes32 solanaOwner, uint256 amount, uint256 gasDrop, bool isNative) private {
        uint256 n = nonce++;
        if (!legacyEvent) {
            emit CashmereTransfer(destinationDomain, n, recipient, solanaOwner, msg.sender, uint64(amount), gasDrop, isNative);
        } else {
            bytes32 topic0 = keccak256("CashmereTransfer(uint32,uint256,bytes32,bytes32,address,uint256,uint256,bool)");
            bytes memory data = abi.encode(destinationDomain, recipient, solanaOwner, amount, gasDrop, isNative);
            address user = msg.sender;
            assembly {
                log3(add(data, 32), mload(data), topic0, n, user)
            }
        }
    }
}
