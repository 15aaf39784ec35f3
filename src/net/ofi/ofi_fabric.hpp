#pragma once
// The libfabric objects behind one ofi device, opened in order and closed in reverse: the chosen
// provider's info, fabric, domain, completion queue, address vector (ranks in order, so rank r is
// fi_addr r) and an enabled RDM endpoint. Also memory registration, which depends on the
// provider's mr_mode.
#include <mpi.h>
#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>

#include <cstdint>
#include <string>
#include <vector>

#include "courier/net/ofi_device.hpp"

namespace courier::net::detail {

class OfiFabric;

// One registered memory range; closed on destruction. Empty (no mr) when the provider needs no
// registration for this use.
class Registration {
 public:
  Registration() = default;
  Registration(fid_mr* mr) : mr_(mr) {}
  Registration(Registration&& other) noexcept : mr_(other.mr_) { other.mr_ = nullptr; }
  Registration& operator=(Registration&& other) noexcept;
  ~Registration() { reset(); }
  void reset() noexcept;
  void* desc() const { return mr_ ? fi_mr_desc(mr_) : nullptr; }
  std::uint64_t key() const { return mr_ ? fi_mr_key(mr_) : 0; }

 private:
  fid_mr* mr_ = nullptr;
};

class OfiFabric {
 public:
  // `entries` bounds the operations in flight, to size the completion queue.
  OfiFabric(const OfiDeviceOptions& options, MPI_Comm comm, std::size_t entries);
  ~OfiFabric();
  OfiFabric(const OfiFabric&) = delete;
  OfiFabric& operator=(const OfiFabric&) = delete;

  fid_ep* endpoint() const { return endpoint_; }
  fid_cq* completions() const { return completions_; }
  fi_addr_t address_of(int rank) const { return peers_[static_cast<std::size_t>(rank)]; }
  std::string provider() const { return info_->fabric_attr->prov_name; }
  bool rma() const { return rma_; }
  // Bytes of remote CQ data a write carries (0 without RMA).
  std::size_t cq_data_bytes() const { return rma_ ? info_->domain_attr->cq_data_size : 0; }
  std::size_t max_message_bytes() const { return info_->ep_attr->max_msg_size; }

  // Local buffers need registering only under FI_MR_LOCAL; `access` is FI_SEND, FI_RECV, FI_WRITE.
  Registration register_local(const void* buffer, std::size_t bytes, std::uint64_t access);
  // A region remote ranks write into (FI_REMOTE_WRITE); always registered.
  Registration register_remote(void* buffer, std::size_t bytes);
  // The address a remote writer names for `buffer`: its virtual address or an offset.
  std::uint64_t remote_address(const void* buffer) const;

 private:
  fi_info* choose(const OfiDeviceOptions& options);
  void close() noexcept;
  void exchange_addresses(MPI_Comm comm);
  Registration register_memory(const void* buffer, std::size_t bytes, std::uint64_t access);

  fi_info* info_ = nullptr;
  bool rma_ = false;
  fid_fabric* fabric_ = nullptr;
  fid_domain* domain_ = nullptr;
  fid_cq* completions_ = nullptr;
  fid_av* addresses_ = nullptr;
  fid_ep* endpoint_ = nullptr;
  std::vector<fi_addr_t> peers_;
  std::uint64_t next_key_ = 1;  // when the application picks keys (no FI_MR_PROV_KEY)
};

}  // namespace courier::net::detail
