// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// Test stand-ins for the contracts the indexer reads, emitting the deployed events with the
/// deployed signatures (docs/indexer.md "Events") in the order and from the contract that the
/// deployed contracts emit them (docs/indexer.md "Event order"; checked against
/// circlefin/evm-cctp-contracts `src/MessageTransmitter.sol`, `src/TokenMessenger.sol`,
/// `src/TokenMinter.sol`, `src/v2/MessageTransmitterV2.sol`, `src/v2/TokenMessengerV2.sol`,
/// `src/v2/BaseTokenMessenger.sol`, `src/v2/TokenMinterV2.sol`, and circlefin/stablecoin-evm
/// `contracts/v1/FiatTokenV1.sol`, `contracts/v2/EIP2612.sol` for the token): a bridge token,
/// Circle's TokenMinter, TokenMessenger and MessageTransmitter (v1 or v2 event shapes and message
/// layouts, chosen at deployment), a batch relayer, and the transfer contract with the deployed
/// `CashmereCCTP` ABI (cashmere-prod/contracts-prod `evm/src/CashmereCCTP.sol`) that checks the
/// relayer-fee quote with ecrecover and emits CashmereTransfer. Attestations are not verified
/// (test chain).

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

    /// EIP-2612 as FiatToken v2.2: EIP-712 domain ("USD Coin", "2", chain id, this contract),
    /// the owner's sequential nonce, a 65-byte r || s || v signature; deadline max = no expiry.
    bytes32 public constant PERMIT_TYPEHASH = keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");
    mapping(address => uint256) public nonces;

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(abi.encode(
            keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
            keccak256("USD Coin"), keccak256("2"), block.chainid, address(this)));
    }

    function permit(address owner_, address spender, uint256 value, uint256 deadline, bytes memory signature) external {
        require(deadline == type(uint256).max || deadline >= block.timestamp, "FiatTokenV2: permit is expired");
        bytes32 digest = keccak256(abi.encodePacked(hex"1901", DOMAIN_SEPARATOR(),
            keccak256(abi.encode(PERMIT_TYPEHASH, owner_, spender, value, nonces[owner_]++, deadline))));
        require(signature.length == 65, "EIP2612: invalid signature");
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 32))
            s := mload(add(signature, 64))
            v := byte(0, mload(add(signature, 96)))
        }
        address signer = ecrecover(digest, v, r, s);
        require(signer != address(0) && signer == owner_, "EIP2612: invalid signature");
        allowance[owner_][spender] = value;
        emit Approval(owner_, spender, value);
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

    /// As TokenMessenger(V2).localMessageTransmitter (the transfer contract reads its domain there).
    function localMessageTransmitter() external view returns (TestMessageTransmitter) {
        return transmitter;
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

/// The access control the deployed transfer contract inherits (OpenZeppelin Contracts v5
/// `AccessControl`): the same external functions, events and custom errors, written for this
/// test chain. Roles are only used with DEFAULT_ADMIN_ROLE here.
abstract contract TestAccessControl {
    bytes32 public constant DEFAULT_ADMIN_ROLE = 0x00;
    mapping(bytes32 => mapping(address => bool)) private members;
    mapping(bytes32 => bytes32) private admins;

    error AccessControlUnauthorizedAccount(address account, bytes32 neededRole);
    error AccessControlBadConfirmation();

    event RoleAdminChanged(bytes32 indexed role, bytes32 indexed previousAdminRole, bytes32 indexed newAdminRole);
    event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender);
    event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender);

    modifier onlyRole(bytes32 role) {
        if (!members[role][msg.sender]) revert AccessControlUnauthorizedAccount(msg.sender, role);
        _;
    }

    function supportsInterface(bytes4 interfaceId) public view virtual returns (bool) {
        // IAccessControl and IERC165.
        return interfaceId == 0x7965db0b || interfaceId == 0x01ffc9a7;
    }

    function hasRole(bytes32 role, address account) public view returns (bool) { return members[role][account]; }

    function getRoleAdmin(bytes32 role) public view returns (bytes32) { return admins[role]; }

    function grantRole(bytes32 role, address account) public onlyRole(getRoleAdmin(role)) { _grantRole(role, account); }

    function revokeRole(bytes32 role, address account) public onlyRole(getRoleAdmin(role)) { _revokeRole(role, account); }

    function renounceRole(bytes32 role, address callerConfirmation) public {
        if (callerConfirmation != msg.sender) revert AccessControlBadConfirmation();
        _revokeRole(role, callerConfirmation);
    }

    function _grantRole(bytes32 role, address account) internal {
        if (members[role][account]) return;
        members[role][account] = true;
        emit RoleGranted(role, account, msg.sender);
    }

    function _revokeRole(bytes32 role, address account) private {
        if (!members[role][account]) return;
        members[role][account] = false;
        emit RoleRevoked(role, account, msg.sender);
    }
}

/// Stand-in of the deployed transfer contract (cashmere-prod/contracts-prod
/// `evm/src/CashmereCCTP.sol`): the same constructor, external functions, struct parameters,
/// public state, events and custom errors (pinned by packages/devnet/src/cashmere-abi.test.ts), and
/// the same rules: the relayer-fee quote is checked with ecrecover over the compact packing
/// `keccak256(abi.encodePacked(uint32 localDomain, uint32 destinationDomain, uint128 fee,
/// uint64 deadline, bool isNative, uint8 version))`, version 1 for `transfer` and 2 for
/// `transferV2`; the percentage fee `feeBP` (basis points of `amount`, at most 100) is kept on top
/// of the quoted fee; v1 pulls amount + gas drop (USDC gas drop) and burns amount - fees; v2
/// pulls amount and burns amount - fees - gas drop; a native quote is paid in msg.value (fee +
/// gas drop, change returned). Written for the test chain, not a copy of the deployed code.
contract CashmereCCTP is TestAccessControl {
    error FeeExceedsAmount();
    error TransferFailed();
    error NativeTransferFailed();
    error InvalidSignature();
    error DeadlineExpired();
    error NativeAmountTooLow();
    error GasDropLimitExceeded();
    error WithdrawCooldownNotPassed();
    error WithdrawLimitExceeded();
    error ReentrancyError();
    error InvalidSignatureLength();
    error Paused();
    error BPTooHigh();
    error ZeroLimit();

    /// Field order and widths as deployed: the public getter `state()` returns them in this order.
    struct State {
        address signer;
        uint32 nonce;
        uint32 maxUSDCGasDrop;
        uint16 feeBP;
        bool reentrancyLock;
        bool paused;
        uint128 maxNativeGasDrop;
        uint128 lastFeeWithdrawTimestamp;
    }

    struct TransferParams {
        uint64 amount;
        uint128 fee;
        uint64 deadline;
        uint128 gasDropAmount;
        uint32 destinationDomain;
        bytes32 recipient;
        bytes32 solanaOwner;
        bool isNative;
        bytes signature;
    }

    struct TransferV2Params {
        uint64 amount;
        uint256 maxFee;
        uint128 fee;
        uint64 deadline;
        uint128 gasDropAmount;
        uint32 destinationDomain;
        uint32 minFinalityThreshold;
        bytes32 recipient;
        bytes32 solanaOwner;
        bool isNative;
        bytes hookData;
        bytes signature;
    }

    struct PermitParams {
        uint256 value;
        uint256 deadline;
        bytes signature;
    }

    event FeeBPUpdated(uint16 feeBP);
    event SignerUpdated(address newSigner);
    event FeeWithdraw(address destination, uint256 amount, uint256 nativeAmount);
    event PausedUpdated(bool paused);
    event MaxUSDCGasDropUpdated(uint64 newLimit);
    event MaxNativeGasDropUpdated(uint256 newLimit);
    event CashmereTransfer(uint32 destinationDomain, uint256 indexed nonce, bytes32 recipient, bytes32 solanaOwner, address indexed user, uint64 amount, uint256 gasDropAmount, bool isNative);

    State public state;
    uint32 public immutable localDomain;
    TestTokenMessenger public immutable tokenMessenger;
    TestTokenMessenger public immutable tokenMessengerV2;
    address public immutable usdc;

    uint256 private constant BASIS_POINTS = 10_000;
    uint256 private constant FEE_BP_LIMIT = 100;
    uint256 private constant WITHDRAW_COOLDOWN = 4 hours;
    uint256 private constant WITHDRAW_LIMIT = 10_000 * 1e6;

    constructor(address tokenMessenger_, address tokenMessengerV2_, address usdc_) {
        tokenMessenger = TestTokenMessenger(tokenMessenger_);
        tokenMessengerV2 = TestTokenMessenger(tokenMessengerV2_);
        localDomain = TestTokenMessenger(tokenMessenger_).localMessageTransmitter().localDomain();
        usdc = usdc_;
        state.maxUSDCGasDrop = 100_000_000;
        _grantRole(DEFAULT_ADMIN_ROLE, msg.sender);
        resetApprove();
    }

    modifier nonReentrant() {
        if (state.reentrancyLock) revert ReentrancyError();
        state.reentrancyLock = true;
        _;
        state.reentrancyLock = false;
    }

    /// The fee kept in the bridge asset: `feeBP` basis points of `_amount` plus `_staticFee`.
    function getFee(uint64 _amount, uint256 _staticFee) public view returns (uint64) {
        return uint64((uint256(_amount) * state.feeBP) / BASIS_POINTS + _staticFee);
    }

    function setFeeBP(uint16 _feeBP) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (_feeBP > FEE_BP_LIMIT) revert BPTooHigh();
        state.feeBP = _feeBP;
        emit FeeBPUpdated(_feeBP);
    }

    function setPaused(bool _paused) external onlyRole(DEFAULT_ADMIN_ROLE) {
        state.paused = _paused;
        emit PausedUpdated(_paused);
    }

    function setSigner(address _signer) external onlyRole(DEFAULT_ADMIN_ROLE) {
        state.signer = _signer;
        emit SignerUpdated(_signer);
    }

    function setMaxUSDCGasDrop(uint32 _newLimit) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (_newLimit == 0) revert ZeroLimit();
        state.maxUSDCGasDrop = _newLimit;
        emit MaxUSDCGasDropUpdated(_newLimit);
    }

    function setMaxNativeGasDrop(uint128 _newLimit) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (_newLimit == 0) revert ZeroLimit();
        state.maxNativeGasDrop = _newLimit;
        emit MaxNativeGasDropUpdated(_newLimit);
    }

    function withdrawFee(uint256 _usdcAmount, uint256 _nativeAmount, address _destination) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        uint128 now_ = uint128(block.timestamp);
        if (now_ - state.lastFeeWithdrawTimestamp < WITHDRAW_COOLDOWN) revert WithdrawCooldownNotPassed();
        if (_usdcAmount > WITHDRAW_LIMIT) revert WithdrawLimitExceeded();
        TestUsdc(usdc).transfer(_destination, _usdcAmount);
        (bool sent, ) = payable(_destination).call{value: _nativeAmount}("");
        if (!sent) revert NativeTransferFailed();
        state.lastFeeWithdrawTimestamp = now_;
        emit FeeWithdraw(_destination, _usdcAmount, _nativeAmount);
    }

    function resetApprove() public onlyRole(DEFAULT_ADMIN_ROLE) {
        TestUsdc(usdc).approve(address(tokenMessenger), type(uint256).max);
        if (address(tokenMessengerV2) != address(0)) TestUsdc(usdc).approve(address(tokenMessengerV2), type(uint256).max);
    }

    function transfer(TransferParams memory _params) external payable nonReentrant {
        _transferV1(_params);
    }

    function transferV2(TransferV2Params memory _params) external payable nonReentrant {
        _transferV2(_params);
    }

    function transferWithPermit(TransferParams memory _params, PermitParams memory _permitParams) external payable nonReentrant {
        _permit(_permitParams);
        _transferV1(_params);
    }

    function transferV2WithPermit(TransferV2Params memory _params, PermitParams memory _permitParams) external payable nonReentrant {
        _permit(_permitParams);
        _transferV2(_params);
    }

    function _permit(PermitParams memory p) private {
        TestUsdc(usdc).permit(msg.sender, address(this), p.value, p.deadline, p.signature);
    }

    /// Reverts unless `signature` (65 bytes, r || s || v) is the signer's over the compact quote digest.
    function _checkQuote(uint32 destinationDomain, uint128 fee, uint64 deadline, bool isNative, uint8 version, bytes memory signature) private view {
        if (signature.length != 65) revert InvalidSignatureLength();
        bytes32 digest = keccak256(abi.encodePacked(localDomain, destinationDomain, fee, deadline, isNative, version));
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 32))
            s := mload(add(signature, 64))
            v := byte(0, mload(add(signature, 96)))
        }
        if (ecrecover(digest, v, r, s) != state.signer) revert InvalidSignature();
    }

    /// Checks the deadline, limits and payment, pulls the bridge asset from the sender and returns
    /// the amount to burn (before the v2 gas drop deduction: see the callers).
    function _collect(uint64 deadline, uint64 amount, bool isNative, uint256 fee, uint256 gasDrop, bool gasDropOnTop) private returns (uint64) {
        if (state.paused) revert Paused();
        if (block.timestamp > deadline) revert DeadlineExpired();
        uint64 kept = getFee(amount, isNative ? 0 : uint64(fee));
        if (gasDrop > (isNative ? uint256(state.maxNativeGasDrop) : uint256(state.maxUSDCGasDrop))) revert GasDropLimitExceeded();
        uint64 pulled = amount;
        if (!isNative) {
            if (gasDropOnTop) pulled += uint64(gasDrop);
            else kept += uint64(gasDrop);
        }
        if (amount < kept) revert FeeExceedsAmount();
        (bool ok, ) = usdc.call(abi.encodeWithSelector(TestUsdc.transferFrom.selector, msg.sender, address(this), uint256(pulled)));
        if (!ok) revert TransferFailed();
        if (isNative) {
            uint256 owed = fee + gasDrop;
            if (owed > msg.value) revert NativeAmountTooLow();
            if (msg.value > owed) {
                (bool sent, ) = msg.sender.call{value: msg.value - owed}("");
                if (!sent) revert NativeTransferFailed();
            }
        }
        return amount - kept;
    }

    function _transferV1(TransferParams memory p) private {
        _checkQuote(p.destinationDomain, p.fee, p.deadline, p.isNative, 1, p.signature);
        uint64 burned = _collect(p.deadline, p.amount, p.isNative, p.fee, p.gasDropAmount, true);
        tokenMessenger.depositForBurn(burned, p.destinationDomain, p.recipient, usdc);
        _emitTransfer(p.destinationDomain, p.recipient, p.solanaOwner, burned, p.gasDropAmount, p.isNative);
    }

    function _transferV2(TransferV2Params memory p) private {
        _checkQuote(p.destinationDomain, p.fee, p.deadline, p.isNative, 2, p.signature);
        uint64 burned = _collect(p.deadline, p.amount, p.isNative, p.fee, p.gasDropAmount, false);
        tokenMessengerV2.depositForBurnWithHook(burned, p.destinationDomain, p.recipient, usdc, bytes32(0), p.maxFee, p.minFinalityThreshold, p.hookData);
        _emitTransfer(p.destinationDomain, p.recipient, p.solanaOwner, burned, p.gasDropAmount, p.isNative);
    }

    /// Emits CashmereTransfer with the next nonce (wrapping at 2^32, as the deployed uint32 counter).
    function _emitTransfer(uint32 destinationDomain, bytes32 recipient, bytes32 solanaOwner, uint64 amount, uint256 gasDrop, bool isNative) internal virtual {
        uint32 n;
        unchecked { n = state.nonce++; }
        emit CashmereTransfer(destinationDomain, n, recipient, solanaOwner, msg.sender, amount, gasDrop, isNative);
    }
}

/// The same contract emitting `CashmereTransfer` as deployed before 2025-09-02 (`amount` uint256,
/// its own topic0), for the indexer's decoding of earlier history; the ABI is CashmereCCTP's.
contract CashmereCCTPLegacyEvent is CashmereCCTP {
    constructor(address tokenMessenger_, address tokenMessengerV2_, address usdc_) CashmereCCTP(tokenMessenger_, tokenMessengerV2_, usdc_) {}

    function _emitTransfer(uint32 destinationDomain, bytes32 recipient, bytes32 solanaOwner, uint64 amount, uint256 gasDrop, bool isNative) internal override {
        uint256 n;
        unchecked { n = state.nonce++; }
        bytes32 topic0 = keccak256("CashmereTransfer(uint32,uint256,bytes32,bytes32,address,uint256,uint256,bool)");
        bytes memory data = abi.encode(destinationDomain, recipient, solanaOwner, uint256(amount), gasDrop, isNative);
        address user = msg.sender;
        assembly {
            log3(add(data, 32), mload(data), topic0, n, user)
        }
    }
}
